import { compileSearchPattern } from '@rex/rest-config';

/**
 * A configured expression matched against the whole normalised path: it is
 * anchored at both ends whatever it says, so `^_search` allows `_search` and
 * not `_searchx` or `_search/../_count`. The configuration loader has checked
 * that it compiles.
 */
export const compilePattern = compileSearchPattern;

export type AllowList = Map<string, RegExp[]>;

/**
 * What an end-point without `allowed` forwards: reading only (searches, counts, field lists and
 * single documents). Writes, deletions and the index's administration need an `allowed` entry
 * naming them, so an end-point (an `open` one above all) never writes by default.
 */
export const READ_ONLY: Record<string, Record<string, string>> = {
  get: { _search: 'search', _count: 'count', '_mapping(/field/[^/]+)?': 'field mappings', _field_caps: 'field capabilities', '_(doc|source)/[^/]+': 'one document' },
  post: { _search: 'search', _count: 'count' },
};

/** `allowed`: lower-case method → {expression: description}; absent means `READ_ONLY`. */
export function compileAllowList(allowed: Record<string, Record<string, string>> | undefined): AllowList {
  return new Map(Object.entries(allowed ?? READ_ONLY).map(([method, patterns]) => [method.toLowerCase(), Object.keys(patterns).map(compilePattern)]));
}

/** `allowed`, `method` when another method allows the path (405), or `path` when none does (400). */
export function allowListVerdict(list: AllowList, method: string, path: string): 'allowed' | 'method' | 'path' {
  const matches = (patterns: RegExp[] | undefined) => (patterns ?? []).some((pattern) => pattern.test(path));
  if (matches(list.get(method.toLowerCase()))) return 'allowed';
  for (const [other, patterns] of list) if (other !== method.toLowerCase() && matches(patterns)) return 'method';
  return 'path';
}
