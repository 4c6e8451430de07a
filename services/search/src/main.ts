import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { loadRestConfigOrExit } from '@rex/rest-config';
import { runService } from '@rex/telemetry';
import { SearchEnv } from './config.ts';
import { startSearchServer } from './server.ts';

const config = loadEnv(SearchEnv);
const logger = createLogger('search', config.LOG_LEVEL);

const restConfig = loadRestConfigOrExit(config.REX_CONFIG);

await runService({ name: 'search', logger, metricsPort: config.METRICS_PORT, metricsHost: config.METRICS_HOST, stopWithinMs: config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS, start: () => startSearchServer(config, restConfig, logger) });
