import { loadEnv } from '@rex/config';
import { createLogger } from '@rex/logger';
import { loadRestConfigOrExit } from '@rex/rest-config';
import { runService } from '@rex/telemetry';
import { GatewayEnv } from './config.ts';
import { startGateway } from './server.ts';

const config = loadEnv(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);

const restConfig = loadRestConfigOrExit(config.REX_CONFIG);

await runService({ name: 'gateway', logger, metricsPort: config.METRICS_PORT, metricsHost: config.METRICS_HOST, start: () => startGateway(config, logger, restConfig) });
