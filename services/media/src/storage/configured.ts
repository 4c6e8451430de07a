import { join } from 'node:path';
import type { MediaConfig } from '../config.ts';
import { localStorage } from './local.ts';
import type { Storage } from './storage.ts';

/**
 * The storage MEDIA_STORAGE names: a local volume (MEDIA_DIR) or an
 * S3-compatible bucket. The S3 client is loaded only for a bucket: a start
 * with local storage does not pay for it.
 */
export async function configuredStorage(config: MediaConfig): Promise<Storage> {
  if (config.MEDIA_STORAGE === 's3') {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when MEDIA_STORAGE is s3');
    const { s3Storage } = await import('./s3.ts');
    return s3Storage({ bucket: config.S3_BUCKET, endpoint: config.S3_ENDPOINT, region: config.S3_REGION, forcePathStyle: config.S3_FORCE_PATH_STYLE, prefix: config.S3_PREFIX });
  }
  return localStorage(config.MEDIA_DIR ?? join(config.REX_DATA_DIR, 'media'));
}
