import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { runService } from '@rex/grpc';
import { createLogger } from '@rex/logger';
import { loadRestConfigOrExit } from '@rex/rest-config';
import { MediaEnv } from './config.ts';
import { startMediaServer } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('media', SCHEMA, migrations());

const config = loadEnv(MediaEnv);
const logger = createLogger('media', config.LOG_LEVEL);

const restConfig = loadRestConfigOrExit(config.REX_CONFIG);

await runService({ name: 'media', logger, settings: config, start: () => startMediaServer(config, restConfig, logger) });
