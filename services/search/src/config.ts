import { GrpcServiceEnv, z } from '@rex/config';

export const SearchEnv = GrpcServiceEnv.extend({
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50053).describe('gRPC listen port; 0 picks a free one'),
  REX_CONFIG: z.string().optional().describe('REST configuration file; its search_index section lists the end-points'),
  INDEX_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000).describe('longest wait for the search index'),
});

export type SearchConfig = z.infer<typeof SearchEnv>;
