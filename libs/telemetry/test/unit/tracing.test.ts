import { describe, expect, it } from 'vitest';
import { serviceOfEntrypoint, tracingConfigured } from '../../src/tracing.ts';

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
});
