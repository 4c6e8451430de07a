import { GrpcServiceEnv, z } from '@rex/config';

export const ReportsEnv = GrpcServiceEnv.extend({
  DATABASE_URL: z.string().min(1).describe('PostgreSQL connection string: schema reports (written by the projector), records outbox read'),
  REPORTS_DATABASE_URL: z.string().min(1).optional().describe('where reports run, e.g. a read replica; unset → DATABASE_URL'),
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50052).describe('gRPC listen port; 0 picks a free one'),
  REPORTS_LIBRARY_DIRS: z.string().default('').describe('extra report folders, separated by ":"; later folders override earlier reports'),
  REPORT_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000).describe('longest a report query may run'),
  REPORT_COUNT_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000).describe('longest a report page waits for its total count; slower counts are left out'),
  REPORT_COUNT_LIMIT: z.coerce.number().int().min(0).default(10_000).describe('rows a report page counts at most; a page of more goes without its count (0: no limit)'),
  REPORT_COUNT_CACHE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60_000)
    .describe(
      "how long a report page's total count is kept for the pages after it while the read model does not change; 0: every page counts (counts read on a standby are never kept)",
    ),
  REPORT_PAGE_COST: z.coerce
    .number()
    .min(0)
    .default(0.1)
    .describe("what report queries' plans count for reading a page (seq_page_cost and random_page_cost): 0.1 takes the read model as held in memory; 0 keeps the database server's settings"),
  PROJECTOR_ENABLED: z.enum(['true', 'false']).default('true').describe('run the outbox projector in this replica'),
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().min(1).default(500).describe('outbox events applied per transaction'),
  PROJECTOR_IDLE_MS: z.coerce.number().int().min(1).default(100).describe('pause between polls when there is nothing to apply'),
  PROJECTOR_ANALYZE_EVERY_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('how often, when idle, the projector analyzes read-model tables changed by more than a tenth (each at most this often)'),
  DB_POOL_MAX: z.coerce.number().int().min(1).default(10).describe('largest number of database connections (each pool)'),
});

export type ReportsConfig = z.infer<typeof ReportsEnv>;
