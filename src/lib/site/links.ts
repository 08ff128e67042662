// Navigation and external links of the site shell (SPEC.md §1 external contact and support pages, §2 shell).

export const SITE_NAME = 'DreamAPI';

/**
 * SPEC.md §1 links an external contact page and a support page. Their addresses are build-time settings;
 * until an operator sets them, both lead to our own contact form.
 */
export const EXTERNAL_LINKS = {
  contact: import.meta.env.PUBLIC_CONTACT_URL || '/contact-us',
  support: import.meta.env.PUBLIC_SUPPORT_URL || '/contact-us?topic=support',
} as const;

export interface NavLink {
  href: string;
  label: string;
  summary: string;
}

export const API_LINKS: readonly NavLink[] = [
  { href: '/reference', label: 'API Reference', summary: 'Every endpoint with examples' },
  { href: '/docs', label: 'Docs', summary: 'Authentication, tasks and webhooks' },
  { href: '/pricing', label: 'Pricing', summary: 'Credits per feature' },
];

export const COMPANY_LINKS: readonly NavLink[] = [
  { href: '/contact-us', label: 'Contact Us', summary: 'Talk to the team' },
  { href: EXTERNAL_LINKS.support, label: 'Support', summary: 'Get help with your account' },
];
