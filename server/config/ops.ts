// Environment variables of metrics, tracing and the graceful drain (merged into the server configuration in index.ts).
import { z } from 'zod';
import { DRAIN, METRICS } from '../../src/lib/product-rules';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const opsEnvShape = {
  /** /metrics on PORT, for whoever sends it as a Bearer token; unset: /metrics is not served on PORT. */
  METRICS_TOKEN: z
    .string()
    .min(METRICS.minTokenChars, `must be at least ${METRICS.minTokenChars} characters`)
    .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters')
    .optional(),
  /** A second listener that serves only /metrics (no token unless METRICS_TOKEN is set too). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default(METRICS.defaultHost),
  /** OTLP/HTTP collector base URL (…/v1/traces is appended); unset: no tracing SDK is loaded at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL, e.g. http://127.0.0.1:4318')
    .optional(),
  /** The full traces URL, when the collector does not follow the …/v1/traces convention. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL')
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(100).default('dreamapi'),
  OTEL_SDK_DISABLED: flag.optional(),
  DRAIN_TIMEOUT_S: z.coerce.number().min(0).max(3600).default(DRAIN.timeoutS),
  DRAIN_DELAY_S: z.coerce.number().min(0).max(300).default(DRAIN.delayS),
};

export interface OpsConfig {
  /** /metrics: token on PORT, and/or a port of its own; both null: not served. */
  metrics: { token: string | null; port: number | null; host: string };
  /** Where spans go over OTLP/HTTP; null: tracing is off and its SDK never loaded. */
  tracing: { tracesUrl: string; serviceName: string } | null;
  /** Running tasks may finish for this long after SIGTERM; then they are handed back to the queue. */
  drainTimeoutMs: number;
  /** /readyz answers 503 for this long after SIGTERM while requests are still served (load balancers notice). */
  drainDelayMs: number;
}

type OpsEnv = z.infer<z.ZodObject<typeof opsEnvShape>>;

/** `refuse` turns a problem between variables into the configuration error loadConfig throws. */
export function opsConfig(e: OpsEnv & { PORT: number }, refuse: (message: string) => Error): OpsConfig {
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    throw refuse(
      'METRICS_PORT must differ from PORT (or leave it unset and set METRICS_TOKEN to serve /metrics on PORT)',
    );
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  const tracesUrl = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : undefined);
  return {
    metrics: { token: e.METRICS_TOKEN ?? null, port: e.METRICS_PORT ?? null, host: e.METRICS_HOST },
    tracing: tracesUrl && !e.OTEL_SDK_DISABLED ? { tracesUrl, serviceName: e.OTEL_SERVICE_NAME } : null,
    drainTimeoutMs: Math.round(e.DRAIN_TIMEOUT_S * 1000),
    drainDelayMs: Math.round(e.DRAIN_DELAY_S * 1000),
  };
}
