import { GrpcServiceEnv, z } from '@rex/config';

export const RecordsEnv = GrpcServiceEnv.extend({
  DATABASE_URL: z.string().min(1).describe('PostgreSQL connection string (schema records)'),
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50051).describe('gRPC listen port; 0 picks a free one'),
  REFERENCE_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000).describe('how long surveys, attributes, taxa, licences, groups and sample methods are cached'),
  MEDIA_ADDR: z.string().optional().describe('media service address, host:port; unset: submissions with media are refused'),
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(5_000).describe('deadline of every call to the media service'),
  MEDIA_CONFIRM_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000).describe('how often claims the media service has not confirmed are retried'),
  MEDIA_CONFIRM_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(50).describe('retries of a media claim before it is left to an operator (metric rex_media_claims_unconfirmable)'),
  IDEMPOTENCY_KEY_TTL_S: z.coerce.number().int().min(60).default(30 * 86_400).describe('how long an Idempotency-Key answers with its first result (then it is deleted)'),
  IDEMPOTENCY_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(3_600_000).describe('how often expired Idempotency-Keys are deleted'),
  ANALYZE_EVERY_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('how often records looks for its tables changed by more than a tenth since their last analysis, and analyzes them (each at most this often)'),
  DB_POOL_MAX: z.coerce.number().int().min(1).default(10).describe('largest number of database connections'),
});

export type RecordsConfig = z.infer<typeof RecordsEnv>;
