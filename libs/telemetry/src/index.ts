export { registry, httpDuration, grpcHandled, grpcDuration, grpcClientDuration, use, prom, startMetricsServer } from './metrics.ts';
export { startTracing, stopTracing, tracingConfigured } from './tracing.ts';
export { runService } from './lifecycle.ts';
