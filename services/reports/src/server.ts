import { fileURLToPath } from 'node:url';
import { Invalidation } from '@rex/cache';
import { followNotifications, superviseDatabase } from '@rex/db';
import { serveGrpc, type ServedGrpc } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { reportsV1, type ReportsServiceHandlers } from '@rex/protos';
import type { ReportsConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { createReportsPools } from './db/pools.ts';
import { READ_MODEL_CHANGED, reportCounts } from './db/report-counts.ts';
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
  // Counts are kept while the read model is unchanged: every change to it notifies, and this replica then forgets them.
  const countChanges = new Invalidation();
  const counts = reportCounts(pools.count, { countLimit: config.REPORT_COUNT_LIMIT, cacheMs: config.REPORT_COUNT_CACHE_MS, invalidation: countChanges });
  const countListener =
    config.REPORT_COUNT_CACHE_MS > 0 ? followNotifications({ url: config.DATABASE_URL, channel: READ_MODEL_CHANGED, onChange: () => countChanges.invalidate(), logger }) : undefined;
  const projector = { name: 'projector', start: () => startProjector(pools.write, logger, { batchSize: config.PROJECTOR_BATCH_SIZE, idleMs: config.PROJECTOR_IDLE_MS, analyzeEveryMs: config.PROJECTOR_ANALYZE_EVERY_MS }) };
  return serveGrpc<ReportsServiceHandlers>({
    definition: reportsV1.ReportsService.service,
    handlers: { ...reportHandlers(catalogue, pools.read, counts, config.REPORT_COUNT_LIMIT), ...exchangeHandlers(pools.read), ...changeHandlers(pools.read, changeSignal) },
    settings: config,
    logger,
    database: (hooks) => superviseDatabase({ pool: pools.write, readPool: pools.read, schema: SCHEMA, migrations: migrations(), applyMigrations: config.MIGRATE_ON_START === 'true', logger, ...hooks }),
    jobs: config.PROJECTOR_ENABLED === 'true' ? [projector] : [],
    closing: () => changeSignal.close(),
    release: async () => {
      await Promise.all([changeListener.stop(), countListener?.stop()]);
      await pools.end();
    },
  });
}
