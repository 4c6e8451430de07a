import { pino, type Logger } from 'pino';
import { traceIds } from '@rex/telemetry';

export type { Logger };

const REDACT = [
  'authorization',
  'req.headers.authorization',
  'headers.authorization',
  'password',
  'secret',
  'token',
  '*.password',
  '*.secret',
  '*.token',
];

/** JSON logs on stdout with the service name and version on every line. */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service, version: process.env.REX_VERSION ?? '0.1.0' },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // A line written for traced work names its trace and span.
    mixin: () => traceIds() ?? {},
  });
}
