import { serveGrpc, type ServedGrpc } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { searchV1, type SearchServiceHandlers } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import type { SearchConfig } from './config.ts';
import { endpointsOf, forwardHandler } from './handlers/forward.ts';

/** Serves SearchService; it keeps nothing, so it is ready as soon as it listens. */
export function startSearchServer(config: SearchConfig, restConfig: RestConfig, logger: Logger): Promise<ServedGrpc> {
  const endpoints = endpointsOf(restConfig);
  return serveGrpc<SearchServiceHandlers>({
    definition: searchV1.SearchService.service,
    handlers: { Forward: forwardHandler(endpoints, config.INDEX_TIMEOUT_MS, logger) },
    settings: config,
    logger,
    about: { endpoints: [...endpoints.keys()] },
  });
}
