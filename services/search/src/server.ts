import { callSecret, startGrpcServer } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { searchV1 } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import type { SearchConfig } from './config.ts';
import { endpointsOf, forwardHandler } from './handlers/forward.ts';

export const SERVICE_NAME = 'search.v1.SearchService';

/** Serves SearchService; it keeps nothing, so it is ready as soon as it listens. */
export async function startSearchServer(config: SearchConfig, restConfig: RestConfig, logger: Logger) {
  const endpoints = endpointsOf(restConfig);
  const server = await startGrpcServer({
    secret: callSecret(config.INTERNAL_AUTH_SECRET),
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
    services: [{ name: SERVICE_NAME, definition: searchV1.SearchService.service, handlers: { Forward: forwardHandler(endpoints, config.INDEX_TIMEOUT_MS, logger) } }],
  });
  server.health.setStatus(SERVICE_NAME, 'SERVING');
  logger.info({ port: server.port, endpoints: [...endpoints.keys()] }, 'search gRPC server listening');
  return {
    port: server.port,
    async stop() {
      server.health.setStatus(SERVICE_NAME, 'NOT_SERVING');
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await server.drain(config.SHUTDOWN_TIMEOUT_MS);
    },
  };
}
