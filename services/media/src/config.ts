import { GrpcServiceEnv, z } from '@rex/config';

export const MediaEnv = GrpcServiceEnv.extend({
  DATABASE_URL: z.string().min(1).describe('PostgreSQL connection string (schema media)'),
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50054).describe('gRPC listen port; 0 picks a free one'),
  REX_CONFIG: z.string().optional().describe('REST configuration file; its media_queue section sets the allowed types and the size limit'),
  REX_DATA_DIR: z.string().default('.rex').describe('data directory; local media files live under its media/ folder'),
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local').describe('where files are kept: a local volume or an S3-compatible bucket'),
  MEDIA_DIR: z.string().optional().describe('local storage folder (default REX_DATA_DIR/media)'),
  S3_BUCKET: z.string().optional().describe('bucket of S3 storage'),
  S3_ENDPOINT: z.string().url().optional().describe('endpoint of an S3-compatible store (unset: AWS)'),
  S3_REGION: z.string().default('us-east-1').describe('region of S3 storage'),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true')
    .describe('path-style bucket addressing (most S3-compatible stores need it)'),
  S3_PREFIX: z.string().default('').describe('key prefix inside the bucket'),
  MEDIA_QUEUE_TTL_S: z.coerce.number().int().min(60).default(86_400).describe('how long an unclaimed upload is kept'),
  MEDIA_RESERVE_TTL_S: z.coerce.number().int().min(5).default(300).describe('how long a submission holds the files it names before they return to the queue'),
  MEDIA_DELETED_GRACE_S: z.coerce.number().int().min(0).default(7 * 86_400).describe('how long the file of a deleted medium is kept (unserved) before it is removed'),
  MEDIA_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000).describe('how often expired uploads are deleted'),
  MEDIA_UPLOAD_QUOTA_BYTES_PER_HOUR: z.coerce.number().int().min(1).default(512 * 1024 * 1024).describe('bytes one uploader (a user, or a website without one) may upload per hour; beyond it uploads are 429'),
  MEDIA_THUMB_SIZE: z.coerce.number().int().min(16).max(4096).default(100).describe('longest side, in pixels, of the thumb- image made of each stored image'),
  MEDIA_MED_SIZE: z.coerce.number().int().min(16).max(8192).default(500).describe('longest side, in pixels, of the med- image made of each stored image'),
  MEDIA_IMAGE_MAX_PIXELS: z.coerce.number().int().min(1).default(100_000_000).describe('images of more pixels (width × height) get no smaller images: they are not decoded at all'),
  DB_POOL_MAX: z.coerce.number().int().min(1).default(10).describe('largest number of database connections'),
});

export type MediaConfig = z.infer<typeof MediaEnv>;
