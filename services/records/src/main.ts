import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { createLogger } from '@rex/logger';
import { runService } from '@rex/telemetry';
import { RecordsEnv } from './config.ts';
import { startRecordsServer } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('records', SCHEMA, migrations());

const config = loadEnv(RecordsEnv);
const logger = createLogger('records', config.LOG_LEVEL);

await runService({ name: 'records', logger, metricsPort: config.METRICS_PORT, metricsHost: config.METRICS_HOST, stopWithinMs: config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS, start: () => startRecordsServer(config, logger) });
