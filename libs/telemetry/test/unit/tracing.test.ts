import { describe, expect, it, vi } from 'vitest';
import { endSpan, serverSpan } from '../../src/spans.ts';
import { batchSettings, serviceOfEntrypoint, startTracing, stopTracing, tracingConfigured } from '../../src/tracing.ts';

describe('tracing settings', () => {
  it('when OTEL_SERVICE_NAME is not set, then spans are named after the service whose entry point runs (as an image starts it, or npm start)', () => {
    expect(serviceOfEntrypoint('/app/services/records/src/main.ts')).toBe('records');
    expect(serviceOfEntrypoint('/work/rex/services/gateway/src/main.ts')).toBe('gateway');
    expect(serviceOfEntrypoint('/work/rex/tools/admin/src/main.ts')).toBeUndefined();
  });

  it('when no exporter is configured, or the SDK is disabled, then tracing does not start', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('when the standard OTEL_BSP_* variables are set, then the batch processor takes them; one that is not a whole number keeps its default', () => {
    expect(batchSettings({ OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_EXPORT_TIMEOUT: '2000', OTEL_BSP_MAX_QUEUE_SIZE: '4096', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '256' })).toEqual({
      scheduledDelayMillis: 100,
      exportTimeoutMillis: 2000,
      maxQueueSize: 4096,
      maxExportBatchSize: 256,
    });
    expect(batchSettings({ OTEL_BSP_SCHEDULE_DELAY: 'soon', OTEL_BSP_MAX_QUEUE_SIZE: '-1', OTEL_BSP_EXPORT_TIMEOUT: '' })).toEqual({});
    expect(batchSettings({})).toEqual({});
  });

  it('when tracing is stopped and started again (as tests of one process do), then the spans go to the new exporter', async () => {
    type Exporter = NonNullable<Parameters<typeof startTracing>[0]>;
    const collecting = () => {
      const names: string[] = [];
      const exporter: Exporter = { export: (spans, done) => (names.push(...spans.map((span) => span.name)), done({ code: 0 })), shutdown: async () => undefined };
      return { exporter, names };
    };
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_on');
    try {
      const [first, second] = [collecting(), collecting()];
      await startTracing(first.exporter);
      endSpan(serverSpan(() => undefined, () => ({ name: 'first', attributes: {} }), true), {});
      await stopTracing();
      await startTracing(second.exporter);
      endSpan(serverSpan(() => undefined, () => ({ name: 'second', attributes: {} }), true), {});
      await stopTracing();
      expect([first.names, second.names]).toEqual([['first'], ['second']]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
