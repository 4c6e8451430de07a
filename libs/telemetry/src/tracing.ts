// The OpenTelemetry SDK is loaded only when tracing starts: loading it costs
// about a third of a second of CPU, which every process would otherwise pay
// at start-up whether or not it exports a single span.
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';

let sdk: NodeSDK | undefined;

const IGNORED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** Query parameters whose values never reach a span: credentials given in URLs, and the signatures OpenTelemetry redacts itself. */
const REDACTED_PARAMETERS = ['secret', 'auth_token', 'token', 'password', 'user', 'user_id', 'Signature', 'AWSAccessKeyId', 'X-Goog-Signature', 'X-Amz-Signature', 'sig'];

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
 * The instrumentations to load: all but those OTEL_NODE_DISABLED_INSTRUMENTATIONS names
 * (comma-separated: http, express, grpc, pg, pino), as the standard variable says.
 */
export function enabledInstrumentations<T>(made: Record<string, () => T>, env: NodeJS.ProcessEnv = process.env): T[] {
  const disabled = new Set((env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  return Object.entries(made)
    .filter(([name]) => !disabled.has(name))
    .map(([, make]) => make());
}

/**
 * Starts OpenTelemetry with the instrumentations rex relies on. Spans are
 * exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces variant)
 * is set; sampling follows the standard OTEL_TRACES_SAMPLER variables.
 * `exporter` lets tests collect spans in memory.
 */
export async function startTracing(exporter?: SpanExporter): Promise<void> {
  if (sdk || process.env.OTEL_SDK_DISABLED === 'true') return;
  const [
    { NodeSDK },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { ExpressInstrumentation },
    { GrpcInstrumentation },
    { PgInstrumentation },
    { PinoInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-grpc'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-pino'),
  ]);
  const spanProcessors: SpanProcessor[] = [];
  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (exporter) spanProcessors.push(new BatchSpanProcessor({ exporter, scheduledDelayMillis: 100 }));
  else if (endpoint) spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...batchSettings() }));
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? serviceOfEntrypoint(),
    spanProcessors,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: enabledInstrumentations<Instrumentation>({
      http: () =>
        new HttpInstrumentation({
          ignoreIncomingRequestHook: (req) => IGNORED_PATHS.has((req.url ?? '').split('?')[0]),
          redactedQueryParamsServer: REDACTED_PARAMETERS,
          redactedQueryParams: REDACTED_PARAMETERS,
        }),
      express: () => new ExpressInstrumentation(),
      grpc: () => new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      pg: () => new PgInstrumentation(),
      pino: () => new PinoInstrumentation(),
    }),
  });
  sdk.start();
}

export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
