import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { RestConfigError, loadRestConfig } from '@rex/rest-config';
import { runService } from '@rex/telemetry';
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

await runService({ name: 'search', logger, metricsPort: config.METRICS_PORT, start: () => startSearchServer(config, restConfig, logger) });
