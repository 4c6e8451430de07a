import { CommonEnv, z } from '@rex/config';
import { DEFAULT_UPLOAD_TURNS } from './routes/upload-turns.ts';

export const GatewayEnv = CommonEnv.extend({
  GATEWAY_HOST: z.string().default('127.0.0.1').describe('HTTP listen address; a container sets 0.0.0.0'),
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(8080).describe('HTTP listen port'),
  DATABASE_URL: z.string().min(1).describe('PostgreSQL connection string (schema auth)'),
  REX_CONFIG: z.string().optional().describe('REST configuration file (YAML or JSON); unset → the development configuration'),
  RECORDS_ADDR: z.string().default('127.0.0.1:50051').describe('records service address, host:port'),
  REPORTS_ADDR: z.string().default('127.0.0.1:50052').describe('reports service address, host:port'),
  REPORT_MAX_PAGE: z.coerce.number().int().min(1).default(100_000).describe('largest limit of a report page in JSON'),
  REPORT_MAX_EXPORT: z.coerce.number().int().min(1).default(1_000_000).describe('largest limit of a report downloaded as CSV or NDJSON (streamed)'),
  REPORT_DEADLINE_MS: z.coerce.number().int().min(1).default(120_000).describe('deadline of a report run (large outputs stream)'),
  SEARCH_ADDR: z.string().default('127.0.0.1:50053').describe('search service address, host:port'),
  SEARCH_DEADLINE_MS: z.coerce.number().int().min(1).default(60_000).describe('deadline of a search forward (the index may be slow)'),
  MEDIA_ADDR: z.string().default('127.0.0.1:50054').describe('media service address, host:port'),
  UPLOAD_DEADLINE_MS: z.coerce.number().int().min(1).default(120_000).describe('deadline of one file upload or download (slow mobile connections)'),
  UPLOADS_READ_AT_ONCE: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_UPLOAD_TURNS.atOnce)
    .describe('upload bodies read at full speed at once; other fast ones wait, unread, for a turn (a body bringing less than 256 KiB in 50 ms is read as it comes, outside the turns)'),
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(5_000).describe('deadline of every call to a backend'),
  GRPC_WRITE_DEADLINE_MS: z.coerce.number().int().min(1).default(15_000).describe('deadline of a write to records (a write past it is cancelled, never committed)'),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000).describe("longest wait for a request's headers"),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000).describe("longest wait for a request's body (uploads: UPLOAD_DEADLINE_MS)"),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(65_000).describe('idle keep-alive connections close after this (longer than a load balancer\'s idle timeout)'),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(4_096).describe('open client connections beyond this are refused'),
  SUBMISSION_MAX_RECORDS: z.coerce.number().int().min(1).default(5_000).describe('records one request may submit, children and list items included'),
  SUBMISSION_MAX_DEPTH: z.coerce.number().int().min(1).default(8).describe('levels child records may nest (a sample with a child sample with an occurrence with media is 4)'),
  PUBLIC_FILES_MAX_AGE_S: z.coerce.number().int().min(0).default(3_600).describe('how long browsers and caches may keep a file served at /upload/... (a deleted medium\'s file may live on in them this long)'),
  BODY_LIMIT: z.string().default('1mb').describe('largest JSON body accepted'),
  TRUSTED_PROXIES: z.string().default('').describe('proxies whose X-Forwarded-* headers are believed (Express trust proxy syntax, e.g. the ingress CIDR); empty believes none'),
  RATE_LIMIT_REDIS_URL: z
    .string()
    .url()
    .optional()
    .describe('Redis for the rate-limit counters, shared by every gateway replica; while it is down each replica counts on its own'),
  PUBLIC_BASE_URL: z.string().url().optional().describe('scheme and host clients use (e.g. https://records.example.org): every link and the HMAC-signed URL use it instead of the Host header'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000).describe('how long website, key and role lookups are cached'),
  JWKS_CACHE_MS: z.coerce.number().int().min(1).default(600_000).describe("how long a JWKS URL's keys are used before they are fetched again (kept when a fetch fails)"),
  DB_POOL_MAX: z.coerce.number().int().min(1).default(5).describe('largest number of database connections'),
  WEBHOOKS_ENABLED: z.enum(['true', 'false']).default('true').describe('this replica delivers webhooks (any number of replicas may; each takes one subscription at a time)'),
  WEBHOOKS_ALLOW_HTTP: z.enum(['true', 'false']).default('false').describe('webhook URLs may be plain http:// (tests, a loopback receiver); otherwise https:// only'),
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false').describe('webhook receivers may be at loopback, private, link-local or other addresses not routed on the internet (tests, a receiver inside the network); otherwise public addresses only, checked when connecting'),
  WEBHOOKS_MAX_PER_OWNER: z.coerce.number().int().min(1).default(10).describe('webhook subscriptions one website or client connection may have'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000).describe("longest wait for a receiver's answer to one delivery"),
  WEBHOOK_BACKOFF_BASE_MS: z.coerce.number().int().min(1).default(10_000).describe('wait after the first failed delivery; it doubles with each failure (with jitter)'),
  WEBHOOK_BACKOFF_MAX_MS: z.coerce.number().int().min(1).default(3_600_000).describe('longest wait between two attempts of one delivery'),
  WEBHOOK_RETRY_FOR_S: z.coerce.number().int().min(1).default(86_400).describe('a change that has failed for this long goes to the dead letters and delivery goes on'),
  WEBHOOK_DISABLE_AFTER_S: z.coerce.number().int().min(1).default(259_200).describe('a subscription failing without a success for this long is disabled (its owner sees why)'),
  WEBHOOK_SECRET_OVERLAP_S: z.coerce.number().int().min(0).default(86_400).describe('after a secret rotation, how long messages are signed with the old secret too'),
  WEBHOOK_LEASE_S: z.coerce.number().int().min(1).default(60).describe('how long a replica holds a subscription it delivers; one killed meanwhile leaves it to another after this'),
  WEBHOOK_IDLE_S: z.coerce.number().int().min(1).default(30).describe('a caught-up subscription looks at the feed again after this at the latest (changes wake it at once)'),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(1_000).describe('how often an idle replica looks for a due subscription'),
});

export type GatewayConfig = z.infer<typeof GatewayEnv>;
