// Preloaded with `node --import @rex/telemetry/register` so that the
// instrumentations hook pg and pino before they load.
// Tracing runs only where spans have somewhere to go (an OTLP endpoint): a
// process without an exporter pays nothing for instrumentation.
//
// The loader hook intercepts only the modules an instrumentation has asked for.
// Left to intercept every module, it rewrote each file the process imports, on
// the hooks' thread, and the suite took about a third longer to start.
import { register } from 'node:module';
import { startTracing, tracingConfigured } from './tracing.ts';

if (tracingConfigured()) {
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  await startTracing();
  // The hooks' thread has heard of every instrumented module before the service imports any.
  await waitForAllMessagesAcknowledged();
}
