// History and dashboard: feature names and screens, share links, the API request log, usage chart, named API keys.

import type { Feature } from './pricing';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** What each feature is called wherever a task is listed (history, billing, usage, request log, shared result). */
export const FEATURE_LABELS: Record<Feature, string> = {
  'tts-common': 'Speech · Common',
  'tts-pro': 'Speech · Pro',
  'tts-clone': 'Speech · cloned voice',
  'voice-clone': 'Voice clone',
  dialogue: 'Dialogue',
  'talking-face': 'Lip sync',
  lipsync: 'Lip sync (API)',
  'talking-image': 'Talking image',
  'video-translate-lip-sync': 'Translate · lip sync',
  'video-translate-voice-only': 'Translate · voice only',
  'text-to-video': 'Text to video',
  'image-to-video': 'Image to video',
  'character-to-video': 'Character to video',
  'wan-text-to-video': 'Wan text to video',
  'wan-image-to-video': 'Wan image to video',
  'tryon-clothes': 'Clothes changer',
  'image-generation': 'Image generation',
  erase: 'Erase',
  'face-swap': 'Face swap',
  restore: 'Restore',
  'video-matting': 'Video matting',
  'stt-common': 'Speech to text',
  'stt-pro': 'Speech to text · Pro',
};

/** A feature's name, or the raw value for one this build does not know. */
export function featureLabel(feature: string): string {
  return (FEATURE_LABELS as Record<string, string>)[feature] ?? feature;
}

/** The playground screen (path under /playground) that makes a feature; API-only features have none. */
export const FEATURE_SCREENS: Partial<Record<Feature, string>> = {
  'tts-common': 'speech',
  'tts-pro': 'speech',
  'tts-clone': 'speech',
  'voice-clone': 'voiceClone',
  dialogue: 'dialogue',
  'image-to-video': 'imageToVideo',
  'text-to-video': 'textToVideo',
  'character-to-video': 'characterToVideo',
  'talking-image': 'characterToVideo',
  'video-translate-lip-sync': 'videoTranslate',
  'video-translate-voice-only': 'videoTranslate',
  'talking-face': 'lipSync',
  'tryon-clothes': 'alClothesChanger',
};

/** The query parameter that opens one task in a screen's history (billing rows link there). */
export const HISTORY_TASK_PARAM = 'task';

/** Where a task is shown: its screen's history with the task opened; null for API-only features. */
export function taskLink(feature: string, taskId: string): string | null {
  const screen = (FEATURE_SCREENS as Record<string, string>)[feature];
  return screen ? `/playground/${screen}?${HISTORY_TASK_PARAM}=${encodeURIComponent(taskId)}#history-title` : null;
}

/** The history panel: how long a deleted item can be brought back before the server deletes it, and the search box. */
export const HISTORY = {
  undoMs: 6000,
  searchMaxLength: 100,
  /** While a re-run from the history is unfinished, its item is polled this often. */
  pollMs: 1500,
} as const;

/** Opt-in public links to one result: signed, expiring, revocable (docs/public-api.md "Share links"). */
export const SHARE_LINKS = {
  /** Lifetimes offered; a link never outlives the result's files (MEDIA_LIMITS retention). */
  ttlDays: [1, 7] as const,
  defaultTtlDays: 1,
  /** Live links one task may have at once. */
  perTask: 5,
  /** The static page that shows a shared result; the token travels in the fragment-free query `t`. */
  pagePath: '/shared',
  tokenParam: 't',
  /** Views of shared results per client IP per minute. */
  viewsPerMinute: 60,
  dayMs: DAY_MS,
} as const;

/** The request log of public API calls (dashboard "Requests"). */
export const REQUEST_LOG = {
  defaultPageSize: 20,
  maxPageSize: 100,
  /** Calls older than this are removed; the usage chart covers the same span. */
  retentionMs: 30 * DAY_MS,
  /** Removal of old calls runs at most this often per process. */
  pruneEveryMs: HOUR_MS,
  /** Longest tool path kept (unknown paths under /api are logged as sent, cut here). */
  maxToolLength: 100,
  /** Calls written by one insert at most (8 values each); this many pending are written at once. */
  maxBatchRows: 500,
  /**
   * Pending calls are written this long after the first of them (sooner when maxBatchRows are pending, and before
   * this process shows a request page or the keys, or stops). One commit a request cost more than the request's
   * own queries; a process killed with -9 loses at most this span of its log, never a task or a credit.
   */
  writeEveryMs: 250,
  /** A key's last-used time is written at most this often (it is shown to the minute). */
  lastUsedResolutionMs: MINUTE_MS,
} as const;

/** Credits used per day and per feature (dashboard overview chart). */
export const USAGE = {
  days: 30,
  dayMs: DAY_MS,
  /** Offsets from UTC a client may ask its days in, minutes (UTC−14 to UTC+14). */
  maxTzOffsetMinutes: 14 * 60,
  /** Features drawn in their own colour; the rest are summed as "Other". */
  maxSeries: 5,
  /** The feature name usage reports for credits of tasks since deleted from the history (their ledger rows stay). */
  deletedFeature: 'deleted',
  deletedLabel: 'Deleted from history',
} as const;

/** Poster frames of video results, taken when the video is stored, so history tiles are never black. */
export const POSTERS = {
  /** The media kind a poster row is stored under, beside audio, image and video. */
  kind: 'poster',
  mime: 'image/jpeg',
  width: 480,
  /** Taken this far in (or halfway into a shorter video), past fades from black. */
  atS: 1,
  timeoutMs: 20_000,
} as const;

/** Named API keys beside the default key that POST /apply/playground returns (SPEC.md §7). */
export const NAMED_API_KEYS = {
  /** Keys per user, the default key included. */
  maxPerUser: 10,
  nameMaxLength: 40,
  defaultName: 'Default key',
} as const;

/** Messages of the history, share, key and request-log calls, as shown to people. */
export const HISTORY_MESSAGES = {
  shareNotFound: 'This shared result does not exist, has expired or was revoked',
  shareNotShareable: 'Only a finished task whose results are still kept can be shared',
  shareTooMany: `This result already has ${SHARE_LINKS.perTask} live links; revoke one first`,
  rerunInputsGone:
    'The input files of this task were removed after the retention period; upload them again on its screen',
  keyNotFound: 'No API key with this id',
  keyLimit: `You already have ${NAMED_API_KEYS.maxPerUser} API keys; revoke one first`,
  keyDefaultRevoke: 'The default key cannot be revoked; regenerate it instead',
  deleted: 'Deleted',
  undo: 'Undo',
} as const;

export { inputSummary, type InputSummary } from './task-summary';
