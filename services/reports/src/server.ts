import { fileURLToPath } from 'node:url';
import { followNotifications, superviseDatabase } from '@rex/db';
import { serveGrpc, type ServedGrpc } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { reportsV1, type ReportsServiceHandlers } from '@rex/protos';
import type { ReportsConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { createReportsPools } from './db/pools.ts';
import { ChangeSignal } from './domain/change-signal.ts';
import { changeHandlers } from './handlers/changes.ts';
import { exchangeHandlers } from './handlers/exchange.ts';
import { reportHandlers } from './handlers/reports.ts';
import { loadCatalogue } from './library/catalogue.ts';
import { CHANGES_CHANNEL, startProjector } from './projector.ts';

/** Serves ReportsService and, unless PROJECTOR_ENABLED is false, runs the outbox projector. */
export function startReportsServer(config: ReportsConfig, logger: Logger): Promise<ServedGrpc> {
  const roots = [fileURLToPath(new URL('../definitions', import.meta.url)), ...config.REPORTS_LIBRARY_DIRS.split(':').filter(Boolean)];
  const catalogue = loadCatalogue(roots);
  logger.info({ roots, reports: catalogue.reports.size }, 'report library loaded');
  const pools = createReportsPools(config);
  // Long-polling feed readers wake when the projector (in whichever replica) commits a batch; a lost notification costs at most a second.
  const changeSignal = new ChangeSignal();
  const changeListener = followNotifications({ url: config.DATABASE_URL, channel: CHANGES_CHANNEL, onChange: () => changeSignal.wake(), logger });
  const projector = { name: 'projector', start: () => startProjector(pools.write, logger, { batchSize: config.PROJECTOR_BATCH_SIZE, idleMs: config.PROJECTOR_IDLE_MS, analyzeEveryMs: config.PROJECTOR_ANALYZE_EVERY_MS }) };
  return serveGrpc<ReportsServiceHandlers>({
    definition: reportsV1.ReportsService.service,
    handlers: { ...reportHandlers(catalogue, pools, config.REPORT_COUNT_LIMIT), ...exchangeHandlers(pools.read), ...changeHandlers(pools.read, changeSignal) },
    settings: config,
    logger,
    database: (hooks) => superviseDatabase({ pool: pools.write, readPool: pools.read, schema: SCHEMA, migrations: migrations(), applyMigrations: config.MIGRATE_ON_START === 'true', logger, ...hooks }),
    jobs: config.PROJECTOR_ENABLED === 'true' ? [projector] : [],
    closing: () => changeSignal.close(),
    release: async () => {
      await changeListener.stop();
      await pools.end();
    },
  });
}
