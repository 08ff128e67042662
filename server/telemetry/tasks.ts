// Metrics and spans of the task path: submit (count, hold, trace context), each run and engine call, settle, fallbacks.
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import {
  EngineInputError,
  EngineUnavailableError,
  EngineUnsupportedError,
  wrapEngines,
  type Engine,
  type EngineRegistry,
} from '../engines';
import {
  creditMovements,
  engineCallDuration,
  engineFailures,
  engineFallbacks,
  taskQueueWait,
  taskRunDuration,
  tasksFinished,
  tasksSubmitted,
} from '../metrics';
import { activeTracer, contextFromTraceparent, traceparentOf } from './tracing';

/**
 * Task id → the engine whose attempt failed last in the run under way, so the next engine's start counts as a fallback.
 */
const failedBefore = new Map<string, string>();

function failureKind(error: unknown, signal: AbortSignal): string {
  if (error instanceof EngineInputError) return 'input';
  if (error instanceof EngineUnsupportedError) return 'unsupported';
  // Quota, billing, a refused key or a busy provider: the engine sits out a while (operators alert on this kind).
  if (error instanceof EngineUnavailableError) return 'unavailable';
  if (signal.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    // The attempt's own deadline (AbortSignal.timeout) or the task's (TaskTimeout); anything else stopped the task.
    return reason?.name === 'TimeoutError' || reason?.name === 'TaskTimeout' ? 'timeout' : 'canceled';
  }
  return 'error';
}

async function inSpan<T>(name: string, attributes: Record<string, string | number>, fn: () => Promise<T>): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return fn();
  return tracer.startActiveSpan(name, { attributes }, async (span: Span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

function instrumentEngine(engine: Engine): Engine {
  return {
    ...engine,
    async run(feature, input, ctx) {
      const from = failedBefore.get(ctx.taskId);
      if (from !== undefined && from !== engine.name) engineFallbacks.inc({ feature, from, to: engine.name });
      const start = performance.now();
      const seconds = () => (performance.now() - start) / 1000;
      try {
        const result = await inSpan(
          `engine ${engine.name}`,
          { 'engine.name': engine.name, 'task.feature': feature, 'task.id': ctx.taskId },
          () => engine.run(feature, input, ctx),
        );
        engineCallDuration.observe({ engine: engine.name, feature, outcome: 'ok' }, seconds());
        return result;
      } catch (error) {
        const kind = failureKind(error, ctx.signal);
        engineCallDuration.observe({ engine: engine.name, feature, outcome: kind }, seconds());
        engineFailures.inc({ engine: engine.name, feature, kind });
        failedBefore.set(ctx.taskId, engine.name);
        throw error;
      }
    },
  };
}

/** The registry with every engine it hands out timed, counted and traced (each engine wrapped once). */
export function instrumentEngines<R extends EngineRegistry>(registry: R): R {
  return wrapEngines(registry, instrumentEngine);
}

/** The task service with each run timed from its submit (first attempts) and traced under the submitting request. */
export function instrumentRuns<S extends { run(task: TaskRow, signal: AbortSignal): Promise<void> }>(service: S): S {
  return {
    ...service,
    async run(task: TaskRow, signal: AbortSignal) {
      if (task.attempts === 1 && task.started_at !== null)
        taskQueueWait.observe({ feature: task.feature }, Math.max(0, task.started_at - task.created_at) / 1000);
      const tracer = activeTracer();
      try {
        if (!tracer) return await service.run(task, signal);
        const attributes = {
          'task.id': task.id,
          'task.feature': task.feature,
          'task.engine': task.engine,
          'task.attempt': task.attempts,
        };
        return await tracer.startActiveSpan(
          `task ${task.feature}`,
          { kind: SpanKind.CONSUMER, attributes },
          contextFromTraceparent(task.trace_context),
          async (span) => {
            try {
              await service.run(task, signal);
            } finally {
              span.end();
            }
          },
        );
      } finally {
        failedBefore.delete(task.id);
      }
    },
  };
}

/**
 * Inside the submit transaction: with tracing on, the request's trace context is stored with the task so the run joins
 * its trace (on any worker process). Counted last: the caller enqueues before, so a failed enqueue counts nothing.
 */
export async function recordTraceContext(trx: Transaction<Schema>, task: TaskRow): Promise<void> {
  if (!activeTracer()) return;
  const traceparent = traceparentOf(trace.getActiveSpan());
  if (traceparent)
    await trx.updateTable('tasks').set({ trace_context: traceparent }).where('id', '=', task.id).execute();
}

export function countSubmitted(task: TaskRow): void {
  tasksSubmitted.inc({ feature: task.feature, engine: task.engine });
  if (task.credits_held > 0) creditMovements.inc({ movement: 'held' }, task.credits_held);
}

/** A settled task (the row as finish() wrote it): outcome, run time and where its held credits went. */
export function countFinished(task: TaskRow): void {
  const labels = { feature: task.feature, engine: task.engine, outcome: task.status };
  tasksFinished.inc(labels);
  if (task.started_at !== null && task.finished_at !== null)
    taskRunDuration.observe(labels, Math.max(0, task.finished_at - task.started_at) / 1000);
  const held = task.credits_held;
  const charged = task.credits_charged ?? 0;
  if (task.status === 'succeeded') {
    if (charged > 0) creditMovements.inc({ movement: 'charged' }, charged);
    if (held > charged) creditMovements.inc({ movement: 'released' }, held - charged);
  } else if (held > 0) {
    creditMovements.inc({ movement: 'refunded' }, held);
  }
  trace.getActiveSpan()?.setAttribute('task.outcome', task.status);
}
