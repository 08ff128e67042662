// The live status stream's contract: its query schema and its operation (GET, text/event-stream of getAsyncResult
// views).
import { z } from 'zod';
import { LIVE_STATUS } from '../product-rules';
import type { Operation, StreamDoc } from './operation-shape';

/**
 * ?taskId= names one task (the stream ends after its final status); without it the stream carries every task of the
 * account.
 */
export const taskEventsQuery = z.object({ taskId: z.string().trim().min(1).max(64).optional() });
export type TaskEventsQuery = z.infer<typeof taskEventsQuery>;

export const streamDescription = [
  `Server-Sent Events of the task's status and progress as they change, pushed by whichever API instance you are connected to.`,
  `Each \`${LIVE_STATUS.event}\` event's data is what getAsyncResult answers in \`data\`; every event has an \`id\`, so a reconnect with Last-Event-ID resumes (the current state comes first).`,
  `A comment line every ${LIVE_STATUS.heartbeatMs / 1000} s keeps proxies from closing a quiet stream. With taskId the stream ends after the final status;`,
  `without it, it carries every task of the account until you close it. At most ${LIVE_STATUS.maxStreamsPerAccount} open streams per account on one server (429 beyond).`,
  `If a stream cannot be opened, poll getAsyncResult every ${LIVE_STATUS.pollFallbackMs / 1000} s instead.`,
].join(' ');

/** The stream's documented operation; its example data is getAsyncResult's. */
export function streamOperation(result: { schema: z.ZodType; example: unknown }): Operation & { stream: StreamDoc } {
  const data = JSON.stringify(result.example);
  return {
    id: 'streamAsyncResult',
    method: 'get',
    path: LIVE_STATUS.publicPath,
    tag: 'Tasks',
    summary: 'Stream task status',
    description: streamDescription,
    auth: 'bearer',
    response: result,
    errors: ['illegalParameter', 'notLoggedIn', 'notFound', 'rateLimited', 'internal', 'unavailable'],
    stream: {
      query: taskEventsQuery,
      fields: { taskId: 'The taskId a submit answered with; leave it out to follow every task of the account' },
      event: LIVE_STATUS.event,
      wireExample: `retry: ${LIVE_STATUS.clientRetryMs}\n\nevent: ${LIVE_STATUS.event}\ndata: ${data}\nid: 1760000000231\n\n: heartbeat\n\n`,
    },
  };
}
