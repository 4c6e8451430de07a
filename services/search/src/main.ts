import { loadEnv } from '@rex/config';
import { runService } from '@rex/grpc';
import { createLogger } from '@rex/logger';
import { loadRestConfigOrExit } from '@rex/rest-config';
import { SearchEnv } from './config.ts';
import { startSearchServer } from './server.ts';

const config = loadEnv(SearchEnv);
const logger = createLogger('search', config.LOG_LEVEL);

const restConfig = loadRestConfigOrExit(config.REX_CONFIG);

await runService({ name: 'search', logger, settings: config, start: () => startSearchServer(config, restConfig, logger) });
