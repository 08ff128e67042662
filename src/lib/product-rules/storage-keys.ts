// The two SPEC.md §3 local storage keys the page's tracking stub reads (uid, and the page-view referrer source), as
// plain values: STORAGE_KEYS in constants.ts is built from them, and the stub bundles these two strings, not that file.

/** Where the signed-in user's id is kept (STORAGE_KEYS.userId); tracking entries carry it as uid (SPEC.md §3). */
export const USER_ID_STORAGE_KEY = 'userId';
/** Where the referrer source is kept (STORAGE_KEYS.from); a page view is reported only when one exists (SPEC.md §2). */
export const FROM_STORAGE_KEY = 'from';
