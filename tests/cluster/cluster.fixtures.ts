// Helpers of the cluster tests: which services answer, server processes run through tsx, API calls, a webhook listener.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Schema, TaskRow } from '../../server/db';
import { LEDGER_REASONS } from '../../server/tasks';
import { skipUnlessRequired } from '../../server/test-support/required-services';
import { serverCommand } from '../../scripts/server-command.mjs';
import { postgresProblem, redisProblem } from './services';
import { startServerProcess, type Instance } from './server-processes';

/** Null when PostgreSQL and Redis both answer, else what is missing. */
export async function missingServices(): Promise<string | null> {
  const problems = (await Promise.all([postgresProblem(), redisProblem()])).filter((p) => p !== null);
  return skipUnlessRequired(problems.length ? problems.join('; ') : null);
}

/**
 * Starts `server/main.ts` through tsx as a real process of `role`; resolves once it prints that it is running. Node
 * loads tsx itself: the tsx command would fork the server, and a SIGKILL to it would leave the server running.
 */
export async function startInstance(role: 'api' | 'worker', env: Record<string, string>, all: Instance[]) {
  const command = await serverCommand({ loader: 'tsx' });
  // Generous: tsx compiles the server at each start, and the machine may be busy with other tests.
  return startServerProcess({ command, role, name: role, env, all, timeoutMs: 150_000 });
}

/** POST to the public API with a Bearer key; answers the HTTP status and the JSON envelope. */
export async function call(base: string, apiKey: string, route: string, body: unknown = {}) {
  const res = await fetch(`${base}/api${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; message: string; data: Record<string, unknown> | null };
  return { status: res.status, ...json };
}

export interface Delivery {
  id: string;
  body: { type: string; data: { task: { taskId: string } } };
}

/** A webhook receiver that fails the first delivery of each event (500) and accepts the rest, recording all. */
export async function webhookListener(): Promise<{ url: string; deliveries: Delivery[]; server: Server }> {
  const deliveries: Delivery[] = [];
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      deliveries.push({ id, body: JSON.parse(raw) as Delivery['body'] });
      res.statusCode = seen.has(id) ? 200 : 500;
      seen.add(id);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries, server };
}

/** Polls `check` until it holds; on timeout the error names `what` and, when given, the state `describe` reports. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  describe?: () => Promise<string>,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen within ${timeoutMs} ms${describe ? `: ${await describe()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Each task moved credits exactly once: one hold; a succeeded one settled at most once and never refunded (its ledger
 * sums to minus its charge), any other refunded once and never settled (its ledger sums to 0).
 */
export async function expectSettledOnce(db: Kysely<Schema>, tasks: TaskRow[]) {
  for (const task of tasks) {
    const ledger = await db
      .selectFrom('credit_ledger')
      .select(['reason', 'delta'])
      .where('reference', '=', task.id)
      .execute();
    const reasons = ledger.map((r) => r.reason);
    expect(reasons.filter((r) => r === LEDGER_REASONS.hold)).toHaveLength(1);
    if (task.status === 'succeeded') {
      expect(reasons.filter((r) => r === LEDGER_REASONS.settle).length).toBeLessThanOrEqual(1);
      expect(reasons).not.toContain(LEDGER_REASONS.refund);
      expect(ledger.reduce((n, r) => n + r.delta, 0)).toBe(-task.credits_charged!);
    } else {
      expect(reasons.filter((r) => r === LEDGER_REASONS.refund)).toHaveLength(1);
      expect(reasons).not.toContain(LEDGER_REASONS.settle);
      expect(ledger.reduce((n, r) => n + r.delta, 0)).toBe(0);
    }
  }
}
