// Preloaded with `node --import @rex/telemetry/register`, so that tracing has
// started before the service makes its first span. Tracing runs only where spans
// have somewhere to go (an OTLP endpoint): a process without an exporter does not
// even load the SDK.
import { startTracing, tracingConfigured } from './tracing.ts';

if (tracingConfigured()) await startTracing();
