import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { z } from '@rex/config';

export const METHOD_NAMES = ['jwtUser', 'jwtClient', 'directClient', 'directUser', 'directWebsite', 'hmacClient', 'hmacWebsite'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

const MethodOptions = z
  .object({
    allow_http: z.boolean().default(false),
    allow_cors: z.union([z.boolean(), z.array(z.string())]).default(false),
    resource_options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type MethodOptions = z.infer<typeof MethodOptions>;

/**
 * A search allow-list expression, PHP-style `/re/flags` or bare (`^_search`), matched against the
 * whole normalised path: it is anchored at both ends whatever it says, so `^_search` allows
 * `_search` and not `_searchx` or `_search/../_count`. Throws SyntaxError when it is not one.
 */
export function compileSearchPattern(pattern: string): RegExp {
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  const [source, flags] = delimited ? [delimited[1], delimited[2].replace(/[^isu]/g, '')] : [pattern, ''];
  return new RegExp(`^(?:${source})$`, flags);
}

/** A YAML text's value; a warning (an unknown tag such as `!!js/function`) refuses it as an error does. */
function readYaml(text: string): unknown {
  const document = parseDocument(text);
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) throw problem;
  return document.toJS();
}

/** Expressions → descriptions; every expression must compile, or loading names it. */
const SearchPatterns = z.record(z.string(), z.string()).superRefine((patterns, ctx) => {
  for (const pattern of Object.keys(patterns)) {
    try {
      compileSearchPattern(pattern);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: [pattern], message: `not a regular expression (${(error as Error).message})` });
    }
  }
});

const SearchEndpoint = z
  .object({
    open: z.boolean().default(false),
    apply_filters: z.boolean().default(true),
    index: z.string(),
    url: z.string().url(),
    allowed: z.record(z.string(), SearchPatterns).optional(),
  })
  .strict();

const SHARING_WORDS = ['reporting', 'verification', 'data_flow', 'moderation', 'peer_review', 'editing'] as const;

const LegacyProject = z
  .object({
    id: z.string().optional(),
    website_id: z.number().int().positive(),
    title: z.string(),
    description: z.string().optional(),
    filter_id: z.number().int().optional(),
    sharing: z.enum(SHARING_WORDS).default('reporting'),
    resources: z.array(z.string()).optional(),
    resource_options: z.record(z.string(), z.unknown()).optional(),
    search_index: z.array(z.string()).optional(),
    elasticsearch: z.array(z.string()).optional(),
  })
  .strict();

const LegacyClient = z
  .object({
    shared_secret: z.string().min(1),
    search_index: z.array(z.string()).optional(),
    elasticsearch: z.array(z.string()).optional(),
    projects: z.record(z.string(), LegacyProject).default({}),
  })
  .strict();
export type LegacyClient = z.infer<typeof LegacyClient>;
export type LegacyProject = z.infer<typeof LegacyProject>;

const RateLimit = z
  .object({ limit: z.number().int().positive(), window_seconds: z.number().int().positive().default(60) })
  .strict();

const RestConfigSchema = z
  .object({
    user_id: z.string().optional(),
    dataset_name_attr_id: z.number().int().optional(),
    allow_auth_tokens_in_url: z.boolean().default(false),
    claim_namespace: z.string().min(1).default('indicia.org.uk'),
    authentication_methods: z.partialRecord(z.enum(METHOD_NAMES), MethodOptions).default({}),
    clients: z.record(z.string(), LegacyClient).default({}),
    search_index: z.record(z.string(), SearchEndpoint).optional(),
    elasticsearch: z.record(z.string(), SearchEndpoint).optional(),
    rate_limit: z.object({ per_address: RateLimit.optional(), per_credential: RateLimit.optional() }).strict().optional(),
    media_queue: z
      .object({ max_upload_size: z.number().int().positive().optional(), allowed_file_types: z.array(z.string()).optional() })
      .strict()
      .optional(),
    // Stored files at <base>/upload/<name> and queued ones at <base>/upload-queue/<name>, without credentials.
    media: z.object({ public_files: z.boolean().default(true) }).strict().default({ public_files: true }),
  })
  .strict();

export type RestConfig = z.infer<typeof RestConfigSchema> & {
  /** Enabled methods in the order the file lists them (the order they are tried). */
  methods: { name: MethodName; options: MethodOptions }[];
};

/** Names the API's own resources use; a search end-point may not take one. */
const RESERVED_NAMES = new Set([
  'samples', 'occurrences', 'locations', 'sample_media', 'occurrence_media', 'location_media', 'sample-media', 'occurrence-media',
  'location-media', 'media-queue', 'reports', 'taxon-observations', 'annotations', 'projects', 'surveys', 'openapi.json',
]);

export const DEVELOPMENT_CONFIG = fileURLToPath(new URL('../../../config/development.yaml', import.meta.url));

export class RestConfigError extends Error {}

/** The media queue's size limit when `media_queue.max_upload_size` is not set: phone photos are large. */
export const DEFAULT_MAX_UPLOAD_SIZE = 8 * 1024 * 1024;

/** Reads and validates the REST configuration file; every problem names its key. */
export function loadRestConfig(path: string = DEVELOPMENT_CONFIG): RestConfig {
  let raw: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    raw = path.endsWith('.json') ? JSON.parse(text) : readYaml(text);
  } catch (error) {
    throw new RestConfigError(`cannot read REST configuration ${path}: ${(error as Error).message}`);
  }
  const result = RestConfigSchema.safeParse(raw ?? {});
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new RestConfigError(`invalid REST configuration ${path}:\n${lines.join('\n')}`);
  }
  const config = result.data;
  const endpoints = config.search_index ?? config.elasticsearch ?? {};
  const clashes = Object.keys(endpoints).filter((name) => RESERVED_NAMES.has(name) || !/^[A-Za-z0-9_-]+$/.test(name));
  if (clashes.length) {
    throw new RestConfigError(`invalid REST configuration ${path}:\n  search_index: end-point name(s) ${clashes.join(', ')} clash with API resources or are not plain names`);
  }
  const methods = Object.entries(config.authentication_methods).map(([name, options]) => ({
    name: name as MethodName,
    options: options as MethodOptions,
  }));
  return { ...config, search_index: config.search_index ?? config.elasticsearch, methods };
}

/** loadRestConfig for entrypoints: prints the problems and exits 1 (as `loadEnv` does for variables). */
export function loadRestConfigOrExit(path?: string): RestConfig {
  try {
    return loadRestConfig(path);
  } catch (error) {
    if (!(error instanceof RestConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/**
 * The entry of a configuration record named by request input (a client
 * username, a project id): own entries only, so names such as `constructor`
 * or `__proto__` find nothing.
 */
export function entryOf<T>(record: Record<string, T> | undefined, key: string | undefined): T | undefined {
  return record && key !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
