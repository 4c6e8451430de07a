import { RefusedRequest } from './path.ts';

type Json = Record<string, unknown>;

/**
 * What a filtered caller may do at a path: search or count with the filter
 * applied, read the index's field list, or nothing else (a document fetch, a
 * bulk or admin call could not carry the filter).
 */
export type PathKind = 'search' | 'count' | 'fields';

const FIELD_PATHS = [/^_mapping$/, /^_mapping\/field\/[^/]+$/, /^_field_caps$/];

export function filteredPathKind(path: string): PathKind | undefined {
  if (path === '_search') return 'search';
  if (path === '_count') return 'count';
  if (FIELD_PATHS.some((pattern) => pattern.test(path))) return 'fields';
  return undefined;
}

/** The index's query-string search parameters: moved into the filtered body, never sent as parameters. */
const QUERY_STRING_PARAMETERS = new Map([
  ['q', 'query'],
  ['df', 'default_field'],
  ['default_operator', 'default_operator'],
  ['analyzer', 'analyzer'],
  ['lenient', 'lenient'],
  ['analyze_wildcard', 'analyze_wildcard'],
]);

/** Query parameters the API itself uses; never passed to the index. */
export const API_PARAMETERS = new Set([
  'alias', 'user', 'website_id', 'secret', 'format', 'scroll', 'scroll_id', 'callback', 'aggregation_type', 'state', 'uniq_id', 'proj_id',
  'sharing', 'user_id', '_', 'debug', 'scope',
]);

/** Parameters a filtered caller may pass on, by path kind. */
const FORWARDED_PARAMETERS: Record<PathKind, Set<string>> = {
  search: new Set([
    'size', 'from', 'sort', '_source', '_source_includes', '_source_excludes', 'track_total_hits', 'filter_path', 'typed_keys',
    'rest_total_hits_as_int', 'ignore_unavailable', 'allow_no_indices', 'search_type', 'timeout', 'pretty',
  ]),
  count: new Set(['ignore_unavailable', 'allow_no_indices', 'filter_path', 'pretty']),
  fields: new Set(['fields', 'include_defaults', 'ignore_unavailable', 'allow_no_indices', 'filter_path', 'pretty', 'include_unmapped']),
};

/** Top-level body keys a filtered search may carry; each is bounded by the filter. */
const SEARCH_BODY_KEYS = new Set([
  'query', 'size', 'from', 'sort', '_source', 'track_total_hits', 'aggs', 'aggregations', 'post_filter', 'highlight', 'collapse',
  'search_after', 'fields', 'stored_fields', 'docvalue_fields', 'timeout',
]);
const BODY_KEYS: Record<PathKind, Set<string>> = { search: SEARCH_BODY_KEYS, count: new Set(['query']), fields: new Set() };

/**
 * Keys that reach beyond the filtered documents wherever they appear: an
 * aggregation over the whole index (`global`), background statistics of the
 * whole index (`significant_*`), queries that read other documents by id
 * (`indexed_shape`, `percolate`, `more_like_this`), and joins to parent or
 * child documents, which the filter does not bound (`has_child`,
 * `has_parent`, and their `inner_hits`).
 */
const ESCAPING_KEYS = new Set([
  'global', 'significant_terms', 'significant_text', 'indexed_shape', 'percolate', 'more_like_this', 'mlt', 'has_child', 'has_parent',
]);

/**
 * A bucket aggregation with `min_doc_count: 0` lists every value of its field
 * in the whole index, matched or not: the values of records outside the filter.
 */
const ZERO_COUNT_AGGREGATIONS = new Set(['terms', 'rare_terms', 'multi_terms']);

export type FilteredRequest = { parameters: URLSearchParams; body: Json; queryStringClause?: Json };

/** Refuses a body key or parameter a filtered caller may not send, naming it. */
function refuse(what: string, name: string, kind: PathKind): never {
  throw new RefusedRequest(`The ${what} ${JSON.stringify(name.slice(0, 100))} is not allowed in a ${kind === 'fields' ? 'field list request' : kind} through this proxy.`);
}

function checkNested(value: unknown, where: string, depth = 0): void {
  if (depth > 64) throw new RefusedRequest(`The search body is nested too deeply at ${where}.`);
  if (Array.isArray(value)) {
    for (const item of value) checkNested(item, where, depth + 1);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const object = value as Json;
  if ('index' in object && 'id' in object) throw new RefusedRequest(`A lookup of another document is not allowed (in ${where}).`);
  for (const [key, item] of Object.entries(object)) {
    if (ESCAPING_KEYS.has(key)) throw new RefusedRequest(`"${key}" is not allowed through this proxy (in ${where}).`);
    if (ZERO_COUNT_AGGREGATIONS.has(key) && item && typeof item === 'object' && 'min_doc_count' in item && !(Number((item as Json).min_doc_count) >= 1)) {
      throw new RefusedRequest(`"min_doc_count" below 1 is not allowed in a "${key}" aggregation through this proxy (in ${where}).`);
    }
    checkNested(item, where, depth + 1);
  }
}

/**
 * Splits a filtered caller's parameters into what goes on to the index (an
 * allow-list; the API's own parameters are dropped) and a `query_string`
 * clause made of `q` and its companions, and checks the body's keys.
 */
export function filteredRequest(kind: PathKind, rawQuery: string, body: Json): FilteredRequest {
  const parameters = new URLSearchParams();
  const queryString: Json = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (API_PARAMETERS.has(name)) continue;
    const clauseKey = QUERY_STRING_PARAMETERS.get(name);
    if (clauseKey && kind !== 'fields') queryString[clauseKey] = clauseKey === 'lenient' || clauseKey === 'analyze_wildcard' ? value === 'true' : value;
    else if (FORWARDED_PARAMETERS[kind].has(name)) parameters.append(name, value);
    else refuse('parameter', name, kind);
  }
  for (const [key, value] of Object.entries(body)) {
    if (!BODY_KEYS[kind].has(key)) refuse('body key', key, kind);
    checkNested(value, key);
  }
  if (Object.keys(queryString).length && queryString.query === undefined) throw new RefusedRequest('Parameters of a query string search need q.');
  return { parameters, body, queryStringClause: queryString.query === undefined ? undefined : { query_string: queryString } };
}
