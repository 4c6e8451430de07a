// Preloaded with `node --import @rex/telemetry/register` so that the
// instrumentations hook http, express, grpc-js, pg and pino before they load.
// Tracing runs only where spans have somewhere to go (an OTLP endpoint): a
// process without an exporter pays nothing for instrumentation.
import { register } from 'node:module';
import { startTracing, tracingConfigured } from './tracing.ts';

if (tracingConfigured()) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  await startTracing();
}
