import { loadEnv } from '@rex/config';
import { migrateCommand } from '@rex/db';
import { runService } from '@rex/grpc';
import { createLogger } from '@rex/logger';
import { loadRestConfigOrExit } from '@rex/rest-config';
import { GatewayEnv } from './config.ts';
import { startGateway } from './server.ts';
import { SCHEMA, migrations } from './db/migrations.ts';

if (process.argv[2] === 'migrate') await migrateCommand('gateway', SCHEMA, migrations());

const config = loadEnv(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);

const restConfig = loadRestConfigOrExit(config.REX_CONFIG);

await runService({ name: 'gateway', logger, settings: config, start: () => startGateway(config, logger, restConfig) });
