import { fileURLToPath } from 'node:url';
import { createPool, followNotifications, superviseDatabase, type Pool } from '@rex/db';
import { callSecret, startGrpcServer } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { reportsV1 } from '@rex/protos';
import type { ReportsConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { exchangeHandlers } from './handlers/exchange.ts';
import { reportHandlers } from './handlers/reports.ts';
import { loadCatalogue } from './library/catalogue.ts';
import { CHANGES_CHANNEL, startProjector } from './projector.ts';
import { changeHandlers } from './handlers/changes.ts';
import { ChangeSignal } from './domain/change-signal.ts';

export const SERVICE_NAME = 'reports.v1.ReportsService';
export const SHIPPED_LIBRARY = fileURLToPath(new URL('../library', import.meta.url));

/**
 * Serves ReportsService and, unless disabled, runs the outbox projector.
 * Health reports the service NOT_SERVING until the database is reachable and
 * migrated.
 */
export async function startReportsServer(config: ReportsConfig, logger: Logger) {
  const roots = [SHIPPED_LIBRARY, ...config.REPORTS_LIBRARY_DIRS.split(':').filter(Boolean)];
  const catalogue = loadCatalogue(roots);
  logger.info({ roots, reports: catalogue.reports.size }, 'report library loaded');
  const pool: Pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-reports' });
  const readUrl = config.REPORTS_DATABASE_URL ?? config.DATABASE_URL;
  const readPool: Pool = createPool(readUrl, { max: config.DB_POOL_MAX, applicationName: 'rex-reports-read', statementTimeoutMs: config.REPORT_TIMEOUT_MS, idleInTransactionTimeoutMs: config.REPORT_TIMEOUT_MS });
  const countPool: Pool = createPool(readUrl, { max: config.DB_POOL_MAX, applicationName: 'rex-reports-count', statementTimeoutMs: config.REPORT_COUNT_TIMEOUT_MS });
  const changeSignal = new ChangeSignal();
  const server = await startGrpcServer({
    secret: callSecret(config.INTERNAL_AUTH_SECRET),
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
    services: [
      {
        name: SERVICE_NAME,
        definition: reportsV1.ReportsService.service,
        handlers: { ...reportHandlers(catalogue, { read: readPool, count: countPool }, logger), ...exchangeHandlers(readPool, logger), ...changeHandlers(readPool, changeSignal, logger) },
      },
    ],
  });
  // Long-polling feed readers wake when the projector (in whichever replica) commits a batch; a lost notification costs at most a second.
  const changeListener = followNotifications({ url: config.DATABASE_URL, channel: CHANGES_CHANNEL, onChange: () => changeSignal.wake(), logger });
  logger.info({ port: server.port }, 'reports gRPC server listening');

  let stopping = false;
  let projector: ReturnType<typeof startProjector> | undefined;
  const database = await superviseDatabase({
    pool,
    readPool,
    schema: SCHEMA,
    migrations: migrations(),
    applyMigrations: config.MIGRATE_ON_START === 'true',
    logger,
    setReady: (ready) => {
      if (!stopping) server.health.setStatus(SERVICE_NAME, ready ? 'SERVING' : 'NOT_SERVING');
    },
    onMigrated: () => {
      if (config.PROJECTOR_ENABLED === 'true') {
        projector = startProjector(pool, logger, { batchSize: config.PROJECTOR_BATCH_SIZE, idleMs: config.PROJECTOR_IDLE_MS });
      }
    },
  });

  return {
    port: server.port,
    async stop() {
      stopping = true;
      database.stop();
      server.health.setStatus(SERVICE_NAME, 'NOT_SERVING');
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await projector?.stop();
      changeSignal.close();
      await server.drain(config.SHUTDOWN_TIMEOUT_MS);
      await changeListener.stop();
      await Promise.all([pool.end(), readPool.end(), countPool.end()]);
    },
  };
}
