import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { RestConfigError, loadRestConfig } from '@rex/rest-config';
import { runService } from '@rex/telemetry';
import { MediaEnv } from './config.ts';
import { startMediaServer } from './server.ts';

const config = loadEnv(MediaEnv);
const logger = createLogger('media', config.LOG_LEVEL);

let restConfig;
try {
  restConfig = loadRestConfig(config.REX_CONFIG);
} catch (error) {
  if (!(error instanceof RestConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

await runService({ name: 'media', logger, metricsPort: config.METRICS_PORT, start: () => startMediaServer(config, restConfig, logger) });
