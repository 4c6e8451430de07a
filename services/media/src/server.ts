import { createPool, superviseDatabase } from '@rex/db';
import { currentCall, serveGrpc, type ServedGrpc } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { mediaV1, type MediaServiceHandlers } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import type { MediaConfig } from './config.ts';
import { SCHEMA, migrations } from './db/migrations.ts';
import { queueLimits } from './domain/file-types.ts';
import { mediaHandlers } from './handlers/media.ts';
import { createMediaQueue } from './queue.ts';
import { configuredStorage } from './storage/configured.ts';
import { createVariantMaker } from './variants.ts';

/** Serves MediaService. Expired uploads are swept by every replica (each takes different rows). */
export async function startMediaServer(config: MediaConfig, restConfig: RestConfig, logger: Logger): Promise<ServedGrpc> {
  const storage = await configuredStorage(config);
  const pool = createPool(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName: 'rex-media', scope: currentCall });
  const variants = createVariantMaker(storage, { thumb: config.MEDIA_THUMB_SIZE, med: config.MEDIA_MED_SIZE }, config.MEDIA_IMAGE_MAX_PIXELS, logger);
  const lifetimes = { queueSeconds: config.MEDIA_QUEUE_TTL_S, reserveSeconds: config.MEDIA_RESERVE_TTL_S, deletedGraceSeconds: config.MEDIA_DELETED_GRACE_S };
  const queue = createMediaQueue(pool, storage, queueLimits(restConfig.media_queue), lifetimes, { bytesPerHour: config.MEDIA_UPLOAD_QUOTA_BYTES_PER_HOUR }, variants, { publicFiles: restConfig.media.public_files });
  const sweep = async () => {
    const deleted = await queue.sweep();
    if (deleted) logger.info({ deleted }, 'expired uploads deleted');
  };
  return serveGrpc<MediaServiceHandlers>({
    definition: mediaV1.MediaService.service,
    handlers: mediaHandlers(queue),
    settings: config,
    logger,
    database: (hooks) => superviseDatabase({ pool, schema: SCHEMA, migrations: migrations(), applyMigrations: config.MIGRATE_ON_START === 'true', logger, ...hooks }),
    jobs: [{ name: 'sweeping expired uploads', everyMs: config.MEDIA_SWEEP_INTERVAL_MS, run: sweep }],
    receiveWindow: 8 * 1024 * 1024,
    release: () => pool.end(),
    about: { storage: config.MEDIA_STORAGE },
  });
}
