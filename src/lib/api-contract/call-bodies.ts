// Bodies the playground and the public API both take: one task's id, a page of the history, a webhook secret's
// rotation, an upload's scene.
import { z } from 'zod';
import { FEATURES, HISTORY, TASK_LIMITS, UPLOAD_SCENES } from '../product-rules';
import { looseBoolean, taskId } from './task-fields';

export { taskId };

export const taskIdBody = z.object({ taskId });
export const listBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(TASK_LIMITS.maxPageSize).default(TASK_LIMITS.defaultPageSize),
  feature: z.enum(FEATURES).optional(),
  /** Several features at once (a screen's history); joined with `feature`. */
  features: z.array(z.enum(FEATURES)).max(FEATURES.length).optional(),
  /** Words of the prompt, text, script or voice, case-insensitive. */
  q: z.string().trim().max(HISTORY.searchMaxLength).optional(),
});
export const rotateBody = z.object({
  rotate: looseBoolean.default(false),
});
export const uploadSceneBody = z.object({
  scene: z.enum(Object.keys(UPLOAD_SCENES) as [string, ...string[]]).default('any'),
});
