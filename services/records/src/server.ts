import { createPool, superviseDatabase, type Pool } from '@rex/db';
import { callSecret, currentCall, startGrpcServer, type GrpcServer } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { recordsV1 } from '@rex/protos';
import type { RecordsConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';
import { sampleHandlers } from './handlers/samples.ts';
import { createReferenceData } from './db/reference-repo.ts';
import { createSamples } from './samples.ts';
import { occurrenceHandlers } from './handlers/occurrences.ts';
import { createOccurrences } from './occurrences.ts';
import { locationHandlers } from './handlers/locations.ts';
import { createLocations } from './locations.ts';
import { surveyHandlers } from './handlers/surveys.ts';
import { createSurveys } from './surveys.ts';
import { createAttributeCatalogue } from './attribute-catalogue.ts';
import { createMediaClient } from './clients/media.ts';
import { mediaHandlers } from './handlers/media.ts';
import { createMedia } from './media.ts';
import { createMediaClaims } from './media-claims.ts';

export const SERVICE_NAME = 'records.v1.RecordsService';

export type RecordsServer = { port: number; stop: () => Promise<void> };

/**
 * Serves RecordsService. Health reports the service NOT_SERVING until the
 * database is reachable and migrated, and again whenever it stops answering.
 */
export async function startRecordsServer(config: RecordsConfig, logger: Logger): Promise<RecordsServer> {
  const pool: Pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-records', scope: currentCall });
  const reference = createReferenceData(pool, config.REFERENCE_CACHE_TTL_MS);
  const mediaClient = config.MEDIA_ADDR ? createMediaClient(config.MEDIA_ADDR, callSecret(config.INTERNAL_AUTH_SECRET), config.GRPC_DEADLINE_MS) : undefined;
  const claims = createMediaClaims(pool, mediaClient, logger);
  const grpcServer: GrpcServer = await startGrpcServer({
    secret: callSecret(config.INTERNAL_AUTH_SECRET),
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
    services: [
      {
        name: SERVICE_NAME,
        definition: recordsV1.RecordsService.service,
        handlers: {
          ...sampleHandlers(createSamples(pool, reference, claims), logger),
          ...occurrenceHandlers(createOccurrences(pool, reference, claims), logger),
          ...locationHandlers(createLocations(pool, reference, claims), logger),
          ...mediaHandlers(
            {
              sample: createMedia(pool, reference, claims, 'sample'),
              occurrence: createMedia(pool, reference, claims, 'occurrence'),
              location: createMedia(pool, reference, claims, 'location'),
            },
            logger,
          ),
          ...surveyHandlers(createSurveys(pool, reference), createAttributeCatalogue(pool), logger),
        },
      },
    ],
  });
  logger.info({ port: grpcServer.port }, 'records gRPC server listening');

  let stopping = false;
  let ready = false;
  const database = await superviseDatabase({
    pool,
    schema: SCHEMA,
    migrations: migrations(),
    applyMigrations: config.MIGRATE_ON_START === 'true',
    logger,
    setReady: (isReady) => {
      ready = isReady;
      if (!stopping) grpcServer.health.setStatus(SERVICE_NAME, isReady ? 'SERVING' : 'NOT_SERVING');
    },
  });

  const confirmer = setInterval(() => {
    if (!ready) return;
    claims.confirmPending(5, config.MEDIA_CONFIRM_MAX_ATTEMPTS).catch((error: unknown) => logger.warn({ err: error }, 'confirming media claims failed'));
    claims.forgetReleased().catch((error: unknown) => logger.warn({ err: error }, 'releasing files of deleted media failed'));
  }, config.MEDIA_CONFIRM_INTERVAL_MS);
  confirmer.unref();
  const keySweeper = setInterval(() => {
    if (!ready) return;
    deleteExpiredIdempotencyKeys(pool, config.IDEMPOTENCY_KEY_TTL_S).catch((error: unknown) => logger.warn({ err: error }, 'deleting expired idempotency keys failed'));
  }, config.IDEMPOTENCY_SWEEP_INTERVAL_MS);
  keySweeper.unref();

  return {
    port: grpcServer.port,
    async stop(timeoutMs = config.SHUTDOWN_TIMEOUT_MS) {
      stopping = true;
      clearInterval(confirmer);
      clearInterval(keySweeper);
      database.stop();
      grpcServer.health.setStatus(SERVICE_NAME, 'NOT_SERVING');
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await grpcServer.drain(timeoutMs);
      mediaClient?.close();
      await pool.end();
    },
  };
}
