// Where the server mounts the areas the site's own clients call (server/app.ts), for the clients and the paths here.

/** The playground's calls (signed-in token, JSON bodies): server/routes/playground.ts under this prefix. */
export const PLAYGROUND_PREFIX = '/api-playground';
