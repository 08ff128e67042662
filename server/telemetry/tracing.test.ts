// Tracing on the real server: request, task and engine spans of one trace reach a local OTLP/HTTP receiver; with no
// endpoint no SDK module is loaded.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { freePort } from '../test-support/free-port';
import { listenLocal, readBody } from '../test-support/provider-fakes';
import { startServer, type ServerProcess } from '../test-support/server-process';
import { createUser, waitForTask } from '../test-support/tasks';

const dir = mkdtempSync(path.join(tmpdir(), 'tracing-'));
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

type Value = { stringValue?: string; intValue?: string | number };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Value }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: Value }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
};

describe('OpenTelemetry tracing', () => {
  it(
    "exports a request span, the task it submitted and the engine call as one trace, continuing the caller's " +
      'traceparent; METRICS_PORT counts them',
    async () => {
      const exports: OtlpExport[] = [];
      const receiver = await listenLocal(async (req, res) => {
        const body = await readBody(req);
        if (req.url === '/v1/traces') exports.push(JSON.parse(body.toString()) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
      try {
        const env = {
          DATA_DIR: dir,
          DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
          SECRET_KEY: 'tracing-test-secret-tracing-test-secret-1',
          ENGINES: 'tts-common=espeak',
        };
        const database = await openDatabase(env.DATABASE_URL);
        await migrateToLatest(database);
        const user = await createUser({ database, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, 1000);
        const metricsPort = await freePort();
        const server = await startServer({
          ...env,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_SERVICE_NAME: 'dreamapi-trace-test',
          METRICS_PORT: String(metricsPort),
        });
        servers.push(server);
        expect(server.logs.some((l) => l.msg === 'tracing on')).toBe(true);

        const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
        const callerSpan = '00f067aa0ba902b7';
        const res = await fetch(`${server.url}/api-playground/speech/v1/tts`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            token: user.token,
            traceparent: `00-${callerTrace}-${callerSpan}-01`,
          },
          body: JSON.stringify({ text: 'Follow me through the trace', voiceId: 'en-us-female-1' }),
        });
        const { data } = (await res.json()) as { data: { taskId: string } };
        const requestId = res.headers.get('x-request-id');
        expect((await waitForTask({ database }, data.taskId, 60_000)).status).toBe('succeeded');
        await database.close();
        // The metrics port answers /metrics and nothing else; PORT has no /metrics without METRICS_TOKEN.
        const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
        expect(metrics).toContain(
          'dreamapi_tasks_finished_total{feature="tts-common",engine="espeak",outcome="succeeded"} 1',
        );
        expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404);
        expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
        // The drain exports what is still buffered.
        expect(await server.stop('SIGTERM')).toBe(0);

        const resource = exports[0]!.resourceSpans[0]!.resource.attributes.find((a) => a.key === 'service.name');
        expect(resource?.value.stringValue).toBe('dreamapi-trace-test');
        const spans = exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
        const request = spans.find((s) => s.name === 'POST /api-playground/speech/v1/tts');
        const task = spans.find((s) => s.name === 'task tts-common');
        const engine = spans.find((s) => s.name === 'engine espeak');
        expect(request && task && engine, JSON.stringify(spans.map((s) => s.name))).toBeTruthy();
        expect(request).toMatchObject({ traceId: callerTrace, parentSpanId: callerSpan, kind: 2 });
        expect(attr(request!, 'http.route')).toBe('/api-playground/speech/v1/tts');
        expect(attr(request!, 'http.response.status_code')).toBe(200);
        expect(attr(request!, 'http.request.id')).toBe(requestId);
        expect(task).toMatchObject({ traceId: callerTrace, parentSpanId: request!.spanId });
        expect(attr(task!, 'task.id')).toBe(data.taskId);
        expect(attr(task!, 'task.outcome')).toBe('succeeded');
        expect(engine).toMatchObject({ traceId: callerTrace, parentSpanId: task!.spanId });
      } finally {
        await receiver.close();
      }
    },
    120_000,
  );

  it('loads no tracing SDK module while OTEL_EXPORTER_OTLP_ENDPOINT is unset, and loads it when tracing starts', async () => {
    // A process of its own, so this file's imports do not count: it records every @opentelemetry package it loads.
    const script = `
      import { registerHooks } from 'node:module';
      const seen = new Set();
      registerHooks({ load(url, context, next) { const m = /@opentelemetry\\/[^/]+/.exec(url); if (m) seen.add(m[0]); return next(url, context); } });
      const { createTestApp } = await import(${JSON.stringify(path.resolve('server/test-support/app.ts'))});
      const { startTracing, stopTracing } = await import(${JSON.stringify(path.resolve('server/telemetry/tracing.ts'))});
      const { createLogger } = await import(${JSON.stringify(path.resolve('server/log/index.ts'))});
      const t = await createTestApp();
      await t.app.request('/healthz');
      const off = [...seen].sort();
      await startTracing({ tracesUrl: 'http://127.0.0.1:1/v1/traces', serviceName: 'x' }, createLogger('silent'));
      await stopTracing();
      await t.close();
      process.stdout.write(JSON.stringify({ off, on: [...seen].sort() }));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    const { off, on } = JSON.parse(out) as { off: string[]; on: string[] };
    // The API and attribute names are plain modules with no-op defaults; the SDK, exporter and context manager are not
    // loaded.
    expect(off).toEqual(['@opentelemetry/api', '@opentelemetry/semantic-conventions']);
    expect(on).toEqual(
      expect.arrayContaining([
        '@opentelemetry/sdk-trace',
        '@opentelemetry/exporter-trace-otlp-http',
        '@opentelemetry/context-async-hooks',
        '@opentelemetry/resources',
      ]),
    );
  }, 60_000);
});
