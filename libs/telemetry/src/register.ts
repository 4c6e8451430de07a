// Preloaded with `node --import @rex/telemetry/register` so that the
// instrumentations hook http, express, grpc-js, pg and pino before they load.
import { register } from 'node:module';
import { startTracing } from './tracing.ts';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
startTracing();
