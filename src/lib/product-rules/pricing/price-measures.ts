// The measures a task's price is quoted on: a leaf both the feature prices and the reading of a task's input use.

/** What a task's price depends on, as known at submit (estimate) or after the run (settle). */
export interface PriceInput {
  /** Characters of text to speak (speech features). */
  characters?: number;
  /** Seconds of media: the input's length at submit, the output's real length when settling. */
  seconds?: number;
  /** Output resolution for video features, e.g. '720p'. */
  resolution?: string;
  /** Clip length in seconds for fixed-length video features. */
  durationS?: number;
  /** Images asked for (image generation is charged per image). */
  count?: number;
}
