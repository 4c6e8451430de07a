import { analyzeChangedTables, createPool, superviseDatabase } from '@rex/db';
import { callSecret, currentCall, serveGrpc, type ServedGrpc } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { recordsV1, type RecordsServiceHandlers } from '@rex/protos';
import type { RecordsConfig } from './config.ts';
import { createMediaClient } from './clients/media.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { createReferenceData } from './db/reference-repo.ts';
import { recordsServiceHandlers } from './handlers/records-service.ts';
import { deleteExpiredIdempotencyKeys } from './db/idempotency-repo.ts';
import { createMediaClaims } from './app/media-claims.ts';

/** Serves RecordsService; while it is ready, media claims are confirmed, expired idempotency keys deleted and tables that changed much analyzed. */
export function startRecordsServer(config: RecordsConfig, logger: Logger): Promise<ServedGrpc> {
  const pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-records', scope: currentCall });
  const reference = createReferenceData(pool, config.REFERENCE_CACHE_TTL_MS);
  const mediaClient = config.MEDIA_ADDR ? createMediaClient(config.MEDIA_ADDR, callSecret(config.INTERNAL_AUTH_SECRET), config.GRPC_DEADLINE_MS) : undefined;
  const claims = createMediaClaims(pool, mediaClient, logger);
  return serveGrpc<RecordsServiceHandlers>({
    definition: recordsV1.RecordsService.service,
    handlers: recordsServiceHandlers(pool, reference, claims),
    settings: config,
    logger,
    database: (hooks) => superviseDatabase({ pool, schema: SCHEMA, migrations: migrations(), applyMigrations: config.MIGRATE_ON_START === 'true', logger, ...hooks }),
    jobs: [
      { name: 'confirming media claims', everyMs: config.MEDIA_CONFIRM_INTERVAL_MS, run: () => claims.confirmPending(5, config.MEDIA_CONFIRM_MAX_ATTEMPTS) },
      { name: 'releasing files of deleted media', everyMs: config.MEDIA_CONFIRM_INTERVAL_MS, run: () => claims.forgetReleased() },
      { name: 'deleting expired idempotency keys', everyMs: config.IDEMPOTENCY_SWEEP_INTERVAL_MS, run: () => deleteExpiredIdempotencyKeys(pool, config.IDEMPOTENCY_KEY_TTL_S) },
      // Plans made after a burst of writes (an import, a synchronising app) see the rows it wrote.
      { name: 'analyzing changed tables', everyMs: config.ANALYZE_EVERY_MS, run: () => analyzeChangedTables(pool, SCHEMA, config.ANALYZE_EVERY_MS) },
    ],
    release: async () => {
      mediaClient?.close();
      await pool.end();
    },
  });
}
