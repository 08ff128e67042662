// What the pages say beside disabled Buy buttons while this server takes no payments. A module of its own: only the
// billing tab's island needs it in the browser (the pricing page renders it at build time), so the Buy code stays
// small.

export const PAYMENTS_OFF = {
  /** Why Buy is disabled, said before any click; the support link follows it. */
  reason: 'Payments are not configured on this server yet, so nothing can be bought.',
  /** The link after the reason, to the support page (src/lib/site/links.ts EXTERNAL_LINKS.support). */
  contactSupport: 'Contact support',
  /** The id of the element that says it: each disabled Buy button points at it (aria-describedby). */
  elementId: 'payments-off',
} as const;
