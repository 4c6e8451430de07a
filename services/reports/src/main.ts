import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { createLogger } from '@rex/logger';
import { runService } from '@rex/telemetry';
import { ReportsEnv } from './config.ts';
import { startReportsServer } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('reports', SCHEMA, migrations());

const config = loadEnv(ReportsEnv);
const logger = createLogger('reports', config.LOG_LEVEL);

await runService({ name: 'reports', logger, metricsPort: config.METRICS_PORT, metricsHost: config.METRICS_HOST, stopWithinMs: config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS, start: () => startReportsServer(config, logger) });
