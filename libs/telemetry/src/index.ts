export {
  registry,
  httpDuration,
  httpInFlight,
  grpcInFlight,
  grpcHandled,
  grpcDuration,
  grpcClientDuration,
  use,
  prom,
  startMetricsServer,
  watchPool,
  unwatchPool,
  setBuildInfo,
} from './metrics.ts';
export { startTracing, stopTracing, tracingConfigured } from './tracing.ts';
export { clientSpan, endSpan, inSpan, keepingTrace, serverSpan, traceIds, type Fields, type Span, type SpanAttributes, type SpanDescription, type SpanEnd } from './spans.ts';
