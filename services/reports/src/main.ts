import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { startMetricsServer, stopTracing } from '@rex/telemetry';
import { ReportsEnv } from './config.ts';
import { startReportsServer } from './server.ts';

const config = loadEnv(ReportsEnv);
const logger = createLogger('reports', config.LOG_LEVEL);

const metrics = await startMetricsServer(config.METRICS_PORT);
const server = await startReportsServer(config, logger).catch((error) => {
  logger.fatal({ err: error }, 'reports failed to start');
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
