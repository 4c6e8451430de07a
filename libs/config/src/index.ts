import { z } from 'zod';

export { z };

export class ConfigError extends Error {}

/**
 * Parses `env` against `schema`, naming every bad key. Throws ConfigError. A variable set to
 * nothing or blanks (`PORT=` in an env file, `value: ""` in a manifest) counts as unset: it takes
 * its default, or is named as required, where a number would otherwise be read as 0.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): Readonly<z.infer<S>> {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const result = schema.safeParse(given);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError(`invalid environment:\n${lines.join('\n')}`);
  }
  return Object.freeze(result.data);
}

/** parseEnv for entrypoints: prints the problems and exits 1. */
export function loadEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): Readonly<z.infer<S>> {
  try {
    return parseEnv(schema, env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

/** Settings every rex process shares. */
export const CommonEnv = z.object({
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info').describe('log level'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464).describe('port of /metrics; 0 picks a free one'),
  METRICS_HOST: z.string().default('127.0.0.1').describe('listen address of /metrics; a container sets 0.0.0.0'),
  INTERNAL_AUTH_SECRET: z
    .string({ error: 'required: the secret (32+ characters) every rex service shares to sign calls between them' })
    .min(32, 'must be at least 32 characters')
    .describe('secret shared by the rex services; calls between them are signed with it (npm start generates one)'),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0).describe('wait after failing readiness before draining'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000).describe('longest drain before in-flight work is cut'),
  HEAP_GROWING_PERCENT: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(100)
    .describe("how far V8's heap may grow past what a full collection left before the next (V8's --heap-growing-percent); 0: V8 derives it from the heap limit"),
  IDLE_COLLECTION_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30_000)
    .describe('after this long with its event loop quiet, a process holding 32 MiB more than the least it held since its last such collection runs a full one and gives the memory back; 0: never'),
  MIGRATE_ON_START: z
    .enum(['true', 'false'])
    .default('true')
    .describe('a service that owns a schema migrates it at start; false: it waits for the `migrate` command to have run (a cluster runs it before each rollout)'),
});

/** Settings every gRPC service shares (each adds its own GRPC_PORT). */
export const GrpcServiceEnv = CommonEnv.extend({
  GRPC_HOST: z.string().default('127.0.0.1').describe('gRPC listen address; a container sets 0.0.0.0'),
  GRPC_MAX_CONNECTION_AGE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(300_000)
    .describe('a client connection is closed (gracefully) after this long, so clients re-resolve and spread over new replicas'),
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(900_000)
    .describe('calls still running on a connection past its age get this long to finish (long report downloads, uploads)'),
});
