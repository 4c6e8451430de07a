import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { runService } from '@rex/grpc';
import { createLogger } from '@rex/logger';
import { ReportsEnv } from './config.ts';
import { startReportsServer } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('reports', SCHEMA, migrations());

const config = loadEnv(ReportsEnv);
const logger = createLogger('reports', config.LOG_LEVEL);

await runService({ name: 'reports', logger, settings: config, start: () => startReportsServer(config, logger) });
