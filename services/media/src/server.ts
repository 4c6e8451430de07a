import { join } from 'node:path';
import { createPool, superviseDatabase, type Pool } from '@rex/db';
import { callSecret, currentCall, startGrpcServer } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { mediaV1 } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import type { MediaConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { queueLimits } from './domain/file-types.ts';
import { mediaHandlers } from './handlers/media.ts';
import { createMediaQueue } from './queue.ts';
import { localStorage } from './storage/local.ts';
import { s3Storage } from './storage/s3.ts';
import type { Storage } from './storage/storage.ts';
import { createVariantMaker } from './variants.ts';

export const SERVICE_NAME = 'media.v1.MediaService';

function storageOf(config: MediaConfig): Storage {
  if (config.MEDIA_STORAGE === 's3') {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when MEDIA_STORAGE is s3');
    return s3Storage({ bucket: config.S3_BUCKET, endpoint: config.S3_ENDPOINT, region: config.S3_REGION, forcePathStyle: config.S3_FORCE_PATH_STYLE, prefix: config.S3_PREFIX });
  }
  return localStorage(config.MEDIA_DIR ?? join(config.REX_DATA_DIR, 'media'));
}

/**
 * Serves MediaService. Health is NOT_SERVING until the database is reachable
 * and migrated. Expired uploads are swept on an interval by every replica
 * (each takes different rows).
 */
export async function startMediaServer(config: MediaConfig, restConfig: RestConfig, logger: Logger) {
  const pool: Pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-media', scope: currentCall });
  const storage = storageOf(config);
  const variants = createVariantMaker(storage, { thumb: config.MEDIA_THUMB_SIZE, med: config.MEDIA_MED_SIZE }, config.MEDIA_IMAGE_MAX_PIXELS, logger);
  const queue = createMediaQueue(
    pool,
    storage,
    queueLimits(restConfig.media_queue),
    { queueSeconds: config.MEDIA_QUEUE_TTL_S, reserveSeconds: config.MEDIA_RESERVE_TTL_S, deletedGraceSeconds: config.MEDIA_DELETED_GRACE_S },
    { bytesPerHour: config.MEDIA_UPLOAD_QUOTA_BYTES_PER_HOUR },
    variants,
    { publicFiles: restConfig.media.public_files },
  );
  const server = await startGrpcServer({
    secret: callSecret(config.INTERNAL_AUTH_SECRET),
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
    receiveWindow: 8 * 1024 * 1024,
    services: [{ name: SERVICE_NAME, definition: mediaV1.MediaService.service, handlers: mediaHandlers(queue, logger) }],
  });
  logger.info({ port: server.port, storage: config.MEDIA_STORAGE }, 'media gRPC server listening');

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
      if (!stopping) server.health.setStatus(SERVICE_NAME, isReady ? 'SERVING' : 'NOT_SERVING');
    },
  });

  const sweeper = setInterval(() => {
    if (!ready) return;
    queue.sweep().then(
      (deleted) => deleted && logger.info({ deleted }, 'expired uploads deleted'),
      (error: unknown) => logger.warn({ err: error }, 'sweeping expired uploads failed'),
    );
  }, config.MEDIA_SWEEP_INTERVAL_MS);
  sweeper.unref();

  return {
    port: server.port,
    async stop(timeoutMs = config.SHUTDOWN_TIMEOUT_MS) {
      stopping = true;
      clearInterval(sweeper);
      database.stop();
      server.health.setStatus(SERVICE_NAME, 'NOT_SERVING');
      if (config.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await server.drain(timeoutMs);
      await pool.end();
    },
  };
}
