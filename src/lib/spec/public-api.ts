// Codes of the public API (DreamAPI-compatible) that sit beside ERROR_CODES and TASK_ERROR_CODES.

export const PUBLIC_API_CODES = {
  /** DreamAPI refuses bad parameters with 10192 "Illegal parameter" (docs/public-api.md "Answers"); the message names the field. */
  illegalParameter: 10192,
} as const;
