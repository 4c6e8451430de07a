import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { startMetricsServer, stopTracing } from '@rex/telemetry';
import { GatewayEnv } from './config.ts';
import { loadRestConfig, RestConfigError } from '@rex/rest-config';
import { startGateway } from './server.ts';

const config = loadEnv(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);

let restConfig;
try {
  restConfig = loadRestConfig(config.REX_CONFIG);
} catch (error) {
  if (!(error instanceof RestConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const metrics = await startMetricsServer(config.METRICS_PORT);
const gateway = await startGateway(config, logger, restConfig).catch((error) => {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
});
logger.info({ metricsPort: metrics.port }, 'gateway ready');

const shutdown = async (signal: string) => {
  logger.info({ signal }, 'shutting down');
  await gateway.stop();
  metrics.server.close();
  await stopTracing();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
