// The guide sections of the reference overview, by anchor id, for its headings and the sidebar search.
export const GUIDE_SECTIONS = [
  { id: 'overview', title: 'Overview', keywords: 'base url envelope openapi sdk' },
  { id: 'authentication', title: 'Authentication', keywords: 'api key bearer authorization 401' },
  { id: 'task-lifecycle', title: 'Task lifecycle', keywords: 'status queued running succeeded failed canceled poll' },
  { id: 'credits', title: 'Credits and prices', keywords: 'price billing cost 402' },
  { id: 'errors', title: 'Errors', keywords: 'error codes catalogue 10192 4xx 5xx' },
  { id: 'rate-limits', title: 'Rate limits', keywords: '429 retry-after x-ratelimit' },
  { id: 'idempotency', title: 'Idempotency', keywords: 'idempotency-key retry replay 409' },
  { id: 'webhooks', title: 'Webhooks', keywords: 'callbackurl signature verify standard webhooks whsec' },
  { id: 'uploads', title: 'Uploads', keywords: 'file upload policy multipart scene' },
] as const;

export type GuideSectionId = (typeof GUIDE_SECTIONS)[number]['id'];
export const sectionTitle = (id: GuideSectionId) => GUIDE_SECTIONS.find((s) => s.id === id)!.title;
