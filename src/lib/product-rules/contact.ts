// Limits and messages of the contact form on /contact-us, shared by the page and the server.

export const CONTACT = {
  nameMaxLength: 100,
  messageMinLength: 10,
  messageMaxLength: 5_000,
  topics: ['sales', 'support', 'billing', 'other'] as const,
  /** Messages one address or IP may send per hour, so the form cannot be used to flood the inbox. */
  hourlyLimit: 5,
  /** The window hourlyLimit counts in. */
  windowMs: 60 * 60 * 1000,
} as const;

export type ContactTopic = (typeof CONTACT.topics)[number];

export const CONTACT_MESSAGES = {
  sent: 'Thanks! Your message reached us; we reply within one business day.',
  nameRequired: 'Please enter your name',
  messageTooShort: `Please write at least ${CONTACT.messageMinLength} characters`,
  messageTooLong: `Please keep the message under ${CONTACT.messageMaxLength} characters`,
  tooMany: 'You have sent several messages in the last hour; please wait a little before sending another',
} as const;
