import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { RestConfigError, loadRestConfig } from '@rex/rest-config';
import { startMetricsServer, stopTracing } from '@rex/telemetry';
import { SearchEnv } from './config.ts';
import { startSearchServer } from './server.ts';

const config = loadEnv(SearchEnv);
const logger = createLogger('search', config.LOG_LEVEL);

let restConfig;
try {
  restConfig = loadRestConfig(config.REX_CONFIG);
} catch (error) {
  if (!(error instanceof RestConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const metrics = await startMetricsServer(config.METRICS_PORT);
const server = await startSearchServer(config, restConfig, logger).catch((error) => {
  logger.fatal({ err: error }, 'search failed to start');
  process.exit(1);
});

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await server.stop();
  metrics.server.close();
  await stopTracing();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
