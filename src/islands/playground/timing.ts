// UI timing of the playground: how often a running task is polled (the server's own limits live in
// src/lib/product-rules).

/** Poll once a second: the local engines finish speech in about a second, and the server answers polls cheaply. */
export const POLL_INTERVAL_MS = 1000;
/** After this many failed polls in a row (network down), stop and offer a retry instead of spinning forever. */
export const MAX_POLL_FAILURES = 5;
