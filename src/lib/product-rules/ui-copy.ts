// Words the site shows people where SPEC.md fixes none: toasts in plain English, the paste and not-found notices, Try
// it's question. The API's own message strings stay as SPEC.md §8 writes them (messages.ts); these are what a person
// reads in the page.

/** Toasts: short, plain English, in sentence case. */
export const TOASTS = {
  codeSent: 'Code sent. Check your email',
  signedIn: 'Signed in',
  saved: 'Saved',
  redeemed: 'Invitation redeemed',
  copied: 'Copied',
  keyRegenerated: 'New key created',
  codeNotSent: 'Could not send the code',
  signInFailed: 'Could not sign you in',
  notSaved: 'Could not save',
  copyFailed: 'Could not copy. Select the text instead',
  logoutFailed: 'Could not log out. Try again',
} as const;

/** A count as people read it: 5,000 rather than 5000. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** Said when a paste did not fit a field's limit: what was kept and what was left out. */
export function pasteCutNotice(limit: number, cut: number): string {
  return `Your paste was longer than the ${formatCount(limit)}-character limit, so the last ${formatCount(cut)} ${cut === 1 ? 'character was' : 'characters were'} left out.`;
}

/** An unknown address: the 404 page remembers it (sessionStorage) for the page it redirects to, which says so. */
export const NOT_FOUND = {
  storageKey: 'notFoundPath',
  notice: (path: string) => `There is no page at ${path}, so you are on the playground instead.`,
} as const;

/** Try it on the reference: a charged call asks first. */
export const TRY_IT = {
  question: (credits: number | null, price: string) =>
    credits === null
      ? `This runs a real task and spends credits from your balance (${price}). Send it?`
      : `This runs a real task and spends up to ${formatCount(credits)} ${credits === 1 ? 'credit' : 'credits'} from your balance (${price}). Send it?`,
  confirm: (credits: number | null) =>
    credits === null
      ? 'Send and spend credits'
      : `Send and spend ${formatCount(credits)} ${credits === 1 ? 'credit' : 'credits'}`,
} as const;
