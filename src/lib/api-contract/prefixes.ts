// Where the server mounts the areas the site's own clients call; no zod here, so a page's client imports it directly.

/** The playground's calls (signed-in token, JSON bodies): server/routes/playground.ts under this prefix. */
export const PLAYGROUND_PREFIX = '/api-playground';
