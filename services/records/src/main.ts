import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { startMetricsServer, stopTracing } from '@rex/telemetry';
import { RecordsEnv } from './config.ts';
import { startRecordsServer } from './server.ts';

const config = loadEnv(RecordsEnv);
const logger = createLogger('records', config.LOG_LEVEL);

const metrics = await startMetricsServer(config.METRICS_PORT);
const server = await startRecordsServer(config, logger).catch((error) => {
  logger.fatal({ err: error }, 'records failed to start');
  process.exit(1);
});
logger.info({ metricsPort: metrics.port }, 'records ready to serve');

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await server.stop();
  metrics.server.close();
  await stopTracing();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
