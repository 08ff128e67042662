// The operability settings: metrics token or port, the OTLP endpoint (tracing off without it), drain timings, and the
// clear refusals.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';
import { DRAIN } from '../../src/lib/product-rules';

describe('metrics, tracing and drain settings', () => {
  it('leave metrics and tracing off by default, with the drain defaults', () => {
    expect(loadConfig({}).ops).toEqual({
      metrics: { token: null, port: null, host: '127.0.0.1' },
      tracing: null,
      drainTimeoutMs: DRAIN.timeoutS * 1000,
      drainDelayMs: DRAIN.delayS * 1000,
    });
  });

  it('read the metrics token and port, the OTLP endpoint (…/v1/traces appended, or the traces URL as given) and the drain timings', () => {
    const ops = loadConfig({
      METRICS_TOKEN: 'a-long-enough-metrics-token',
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_SERVICE_NAME: 'api-eu',
      DRAIN_TIMEOUT_S: '40',
      DRAIN_DELAY_S: '2.5',
    }).ops;
    expect(ops).toEqual({
      metrics: { token: 'a-long-enough-metrics-token', port: 9464, host: '0.0.0.0' },
      tracing: { tracesUrl: 'http://collector:4318/v1/traces', serviceName: 'api-eu' },
      drainTimeoutMs: 40_000,
      drainDelayMs: 2_500,
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/otlp/traces',
      }).ops.tracing?.tracesUrl,
    ).toBe('https://b.example/otlp/traces');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' }).ops.tracing,
    ).toBeNull();
  });

  it('refuse a short token, the API port as metrics port, a non-HTTP endpoint and a negative drain', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ METRICS_TOKEN: 'short' })).toContain('METRICS_TOKEN: must be at least 16 characters');
    expect(refusal({ PORT: '9000', METRICS_PORT: '9000' })).toContain('METRICS_PORT must differ from PORT');
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toContain(
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL',
    );
    expect(refusal({ DRAIN_TIMEOUT_S: '-1' })).toContain('DRAIN_TIMEOUT_S');
  });
});
