import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { runService } from '@rex/grpc';
import { createLogger } from '@rex/logger';
import { RecordsEnv } from './config.ts';
import { startRecordsServer } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('records', SCHEMA, migrations());

const config = loadEnv(RecordsEnv);
const logger = createLogger('records', config.LOG_LEVEL);

await runService({ name: 'records', logger, settings: config, start: () => startRecordsServer(config, logger) });
