// The OpenTelemetry SDK is loaded only when tracing starts: loading it costs
// about a third of a second of CPU, which every process would otherwise pay
// at start-up whether or not it exports a single span.
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { samplerOf, useTracing } from './spans.ts';

let sdk: NodeSDK | undefined;
/** The OpenTelemetry API whose globals the running SDK registered. */
let registered: typeof import('@opentelemetry/api') | undefined;

/** The name of the rex service this process runs (services/<name>/…), the default OTEL_SERVICE_NAME. */
export function serviceOfEntrypoint(entrypoint = process.argv[1] ?? ''): string | undefined {
  return /services\/([a-z]+)\//.exec(entrypoint)?.[1];
}

/** True when traces have an exporter to go to and the SDK is not disabled. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

const BATCH_VARIABLES = {
  scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY',
  exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT',
  maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE',
  maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
} as const;

/**
 * The batch span processor's settings from the standard OTEL_BSP_* variables, which the SDK's
 * processor no longer reads itself; a variable that is not a whole number keeps the SDK's default.
 */
export function batchSettings(env: NodeJS.ProcessEnv = process.env): Partial<Record<keyof typeof BATCH_VARIABLES, number>> {
  const settings: Partial<Record<keyof typeof BATCH_VARIABLES, number>> = {};
  for (const [option, variable] of Object.entries(BATCH_VARIABLES) as [keyof typeof BATCH_VARIABLES, string][]) {
    const value = env[variable];
    if (value !== undefined && /^\d{1,9}$/.test(value.trim())) settings[option] = Number(value);
  }
  return settings;
}

/**
 * Starts OpenTelemetry. Spans are exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT
 * (or the traces variant) is set; which requests are traced follows the standard
 * OTEL_TRACES_SAMPLER variables, decided before any span is made (spans.ts), and
 * rex makes the spans itself (HTTP requests, gRPC calls, SQL statements).
 * `exporter` lets tests collect spans in memory.
 */
export async function startTracing(exporter?: SpanExporter): Promise<void> {
  if (sdk || process.env.OTEL_SDK_DISABLED === 'true') return;
  const [api, { NodeSDK }, { AlwaysOnSampler, BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const spanProcessors: SpanProcessor[] = [];
  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (exporter) spanProcessors.push(new BatchSpanProcessor({ exporter, scheduledDelayMillis: 100 }));
  else if (endpoint) spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...batchSettings() }));
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? serviceOfEntrypoint(),
    // Every span made is of a sampled trace: the decision was made before it (spans.ts).
    sampler: new AlwaysOnSampler(),
    spanProcessors,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  registered = api;
  useTracing({ api, tracer: api.trace.getTracer('rex'), sample: samplerOf() });
}

export async function stopTracing(): Promise<void> {
  useTracing(undefined);
  await sdk?.shutdown();
  sdk = undefined;
  // The SDK leaves its tracer provider, context manager and propagator registered; a later start
  // could not register its own, and its spans would go to the stopped one.
  registered?.trace.disable();
  registered?.context.disable();
  registered?.propagation.disable();
  registered = undefined;
}
