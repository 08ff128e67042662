// Environment variables of the process role and the job queue (ROLE, QUEUE, QUEUE_*; docs/scaling.md "Job queue").
import { z } from 'zod';
import { TASK_QUEUE } from '../../src/lib/product-rules';

/** all: HTTP and workers (default); api: HTTP only, submits enqueue; worker: runs tasks, HTTP only for /healthz. */
export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** in-process: workers poll the tasks table (default); pg-boss: jobs in PostgreSQL shared by every worker process. */
export const QUEUES = ['in-process', 'pg-boss'] as const;
export type QueueKind = (typeof QUEUES)[number];

export const queueEnvShape = {
  ROLE: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }).default('all'),
  QUEUE: z.enum(QUEUES, { message: `must be one of ${QUEUES.join(', ')}` }).default('in-process'),
  QUEUE_LEASE_S: z.coerce
    .number()
    .int()
    .min(10, 'must be at least 10 (pg-boss heartbeat)')
    .max(3600)
    .default(TASK_QUEUE.leaseS),
  QUEUE_CHECK_S: z.coerce.number().int().min(1).max(3600).default(TASK_QUEUE.checkS),
  QUEUE_RETRY_DELAY_S: z.coerce.number().int().min(1).max(3600).default(TASK_QUEUE.retryDelayS),
  QUEUE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default(TASK_QUEUE.schema),
};

export interface QueueConfig {
  role: Role;
  kind: QueueKind;
  /** pg-boss only: heartbeat lease, stranded-job check interval, first retry delay (seconds), and its schema. */
  leaseS: number;
  checkS: number;
  retryDelayS: number;
  schema: string;
}

type QueueEnv = z.infer<z.ZodObject<typeof queueEnvShape>>;

/** Returns the queue settings, or a message when they cannot work with this database. */
export function queueConfig(e: QueueEnv, databaseUrl: string): QueueConfig | string {
  if (e.QUEUE === 'pg-boss' && !/^postgres(ql)?:\/\//i.test(databaseUrl.trim())) {
    return 'QUEUE: pg-boss needs a PostgreSQL DATABASE_URL (postgres://…); leave QUEUE unset for the in-process queue';
  }
  return {
    role: e.ROLE,
    kind: e.QUEUE,
    leaseS: e.QUEUE_LEASE_S,
    checkS: e.QUEUE_CHECK_S,
    retryDelayS: e.QUEUE_RETRY_DELAY_S,
    schema: e.QUEUE_SCHEMA,
  };
}
