import type * as grpc from '@grpc/grpc-js';
import type { Logger } from '@rex/logger';
import { callSecret } from './call-grant.ts';
import { adaptHandlers, namesOf, type Handlers } from './handlers.ts';
import { superviseReadiness, type DatabaseSupervisor, type Job } from './readiness.ts';
import { startGrpcServer } from './server.ts';

/** The settings of @rex/config's GrpcServiceEnv (and the service's GRPC_PORT) that serving reads. */
export type GrpcSettings = {
  INTERNAL_AUTH_SECRET: string;
  GRPC_HOST: string;
  GRPC_PORT: number;
  GRPC_MAX_CONNECTION_AGE_MS: number;
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: number;
  SHUTDOWN_DELAY_MS: number;
  SHUTDOWN_TIMEOUT_MS: number;
};

export type ServedGrpc = { port: number; stop: () => Promise<void> };

/**
 * Serves one gRPC service, whose names come from its generated definition:
 * signed calls only (health checks excepted), each handler adapted to its
 * method's kind (see adaptHandlers), grpc.health.v1 SERVING while the
 * service is ready (see superviseReadiness) and its jobs run as their kind
 * says. `stop` drains: not ready at once, then after SHUTDOWN_DELAY_MS
 * (endpoints drop the pod meanwhile) the workers stop, `closing` runs, the
 * running calls get SHUTDOWN_TIMEOUT_MS to finish, and `release` closes what
 * they used.
 */
export async function serveGrpc<S>(options: {
  /** The generated service definition, e.g. recordsV1.RecordsService.service. */
  definition: grpc.ServiceDefinition;
  handlers: Handlers<S>;
  settings: GrpcSettings;
  logger: Logger;
  database?: DatabaseSupervisor;
  jobs?: Job[];
  /** HTTP/2 receive window in bytes (see startGrpcServer): for large client-streaming uploads. */
  receiveWindow?: number;
  /** Runs once no new call is taken, before the running ones are waited for: wakes what would hold them (long polls). */
  closing?: () => void;
  /** Runs after the drain: closes what the handlers used (pools, clients, listeners). */
  release?: () => Promise<unknown>;
  /** More to say in the "listening" log line. */
  about?: Record<string, unknown>;
}): Promise<ServedGrpc> {
  const { definition, settings, logger } = options;
  const service = namesOf(Object.values(definition)[0]).service;
  const server = await startGrpcServer({
    secret: callSecret(settings.INTERNAL_AUTH_SECRET),
    host: settings.GRPC_HOST,
    port: settings.GRPC_PORT,
    maxConnectionAgeMs: settings.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: settings.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
    receiveWindow: options.receiveWindow,
    services: [{ name: service, definition, handlers: adaptHandlers(definition, options.handlers, logger) }],
  });
  logger.info({ port: server.port, ...options.about }, `${service.split('.')[0]} gRPC server listening`);
  const readiness = await superviseReadiness({
    logger,
    database: options.database,
    jobs: options.jobs,
    onChange: (ready) => server.health.setStatus(service, ready ? 'SERVING' : 'NOT_SERVING'),
  });
  return {
    port: server.port,
    async stop() {
      readiness.stop();
      server.health.setStatus(service, 'NOT_SERVING');
      if (settings.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, settings.SHUTDOWN_DELAY_MS));
      await readiness.stopWorkers();
      options.closing?.();
      await server.drain(settings.SHUTDOWN_TIMEOUT_MS);
      await options.release?.();
    },
  };
}
