// Field descriptions that several tools' documentation shares (tool-docs-audio.ts, tool-docs-visual.ts) and the note
// tool-operations.ts puts on the field whose length sets the estimate.
import { TASK_LIMITS } from '../product-rules';

/** A field some engines ignore: said once, the same way on every tool. */
export const engineDependent = (text: string) => `${text} (only where the serving engine supports it)`;

/** A media field whose length sets the credit estimate, which only a file the API uploaded has known. */
export const measuredMedia = (what: string) => `${what} (an uploaded file URL is best: its length sets the estimate)`;

/** A prompt field: what it holds, and the length limit every prompt shares. */
export const promptField = (what: string) => `${what}, up to ${TASK_LIMITS.maxPromptChars} characters`;

export const SEED_FIELD = 'A seed for repeatable results';
