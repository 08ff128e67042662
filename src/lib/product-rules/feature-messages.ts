// What people and developers are told about features this server does not serve, and about runs no AI model makes.
// A module of its own with no imports: every page's feature marks use it, and the price table must not come along.

/** What people and developers are told about features this server does not serve, and about free no-model runs. */
export const FEATURE_MESSAGES = {
  /**
   * The API's answer (HTTP 503, ERROR_CODES.featureUnavailable): for developers; the operator's hint goes to the log.
   */
  unavailable: 'This feature is not available on this server',
  /** The mark on nav links, home cards and reference pages, before any input. */
  notAvailableHere: 'Not available on this server',
  /** What replaces a playground screen's form when none of its features is served. */
  screenNotice: (title: string) => `${title} is not available on this server.`,
  /** The line above the links to the products this server does serve, under that notice. */
  screenAlternatives: 'Try one of these instead:',
  /** Try it on the reference page of a call this server does not serve. */
  tryUnavailable: 'This call is not available on this server, so it cannot be tried here.',
  /** A choice inside a screen (Pro quality, lip-sync translation) that this server does not serve. */
  optionUnavailable: (title: string) => `${title} with these settings is not available on this server.`,
  /**
   * The cost preview and price note of a run no AI model makes, e.g. "Free here: preview engine (no AI model)". "Free"
   * comes first: on a phone the playground shows it on one line, and a long engine name is cut at its end.
   */
  free: (label: string) => `Free here: ${label}`,
} as const;
