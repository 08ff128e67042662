// Codes of the public API (DreamAPI-compatible) that sit beside ERROR_CODES and TASK_ERROR_CODES, and the name of its
// SDK package.

export const PUBLIC_API_CODES = {
  /**
   * DreamAPI refuses bad parameters with 10192 "Illegal parameter" (docs/public-api.md "Answers"); the message names
   * the field.
   */
  illegalParameter: 10192,
} as const;

/**
 * The SDK package (src/lib/sdk/package.json holds the same name) and where the site serves its tarball
 * (scripts/build-site.mjs).
 */
export const SDK_PACKAGE = {
  name: 'dreamapi-platform-sdk',
  tarballPath: '/sdk/dreamapi-platform-sdk.tgz',
} as const;
