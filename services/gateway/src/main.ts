import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { RestConfigError, loadRestConfig } from '@rex/rest-config';
import { runService } from '@rex/telemetry';
import { GatewayEnv } from './config.ts';
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

await runService({ name: 'gateway', logger, metricsPort: config.METRICS_PORT, start: () => startGateway(config, logger, restConfig) });
