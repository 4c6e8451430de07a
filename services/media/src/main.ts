import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { createLogger } from '@rex/logger';
import { loadRestConfigOrExit } from '@rex/rest-config';
import { runService } from '@rex/telemetry';
import { MediaEnv } from './config.ts';
import { startMediaServer } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('media', SCHEMA, migrations());

const config = loadEnv(MediaEnv);
const logger = createLogger('media', config.LOG_LEVEL);

const restConfig = loadRestConfigOrExit(config.REX_CONFIG);

await runService({ name: 'media', logger, metricsPort: config.METRICS_PORT, metricsHost: config.METRICS_HOST, stopWithinMs: config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS, start: () => startMediaServer(config, restConfig, logger) });
