import { fileURLToPath } from 'node:url';

/** Where the .proto files live: the repository's `protos/` folder. */
export const PROTOS_DIR = fileURLToPath(new URL('../../../protos', import.meta.url));

/**
 * One set of options drives both the runtime loader and the type generator,
 * so the generated types always describe what the loader produces.
 */
export const LOADER_OPTIONS = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTOS_DIR],
} as const;

export const PROTO_FILES = [
  'common/v1/auth_context.proto',
  'common/v1/values.proto',
  'records/v1/records_service.proto',
  'search/v1/search_service.proto',
  'reports/v1/reports_service.proto',
  'media/v1/media_service.proto',
  'google/rpc/status.proto',
  'google/rpc/error_details.proto',
];
