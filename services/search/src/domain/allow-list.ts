import { compileSearchPattern } from '@rex/rest-config';

/**
 * A configured expression matched against the whole normalised path: it is
 * anchored at both ends whatever it says, so `^_search` allows `_search` and
 * not `_searchx` or `_search/../_count`. The configuration loader has checked
 * that it compiles.
 */
export const compilePattern = compileSearchPattern;

export type AllowList = Map<string, RegExp[]> | undefined;

/** `allowed`: lower-case method → {expression: description}; absent means anything is allowed. */
export function compileAllowList(allowed: Record<string, Record<string, string>> | undefined): AllowList {
  if (!allowed) return undefined;
  return new Map(Object.entries(allowed).map(([method, patterns]) => [method.toLowerCase(), Object.keys(patterns).map(compilePattern)]));
}

/** `allowed`, `method` when another method allows the path (405), or `path` when none does (400). */
export function allowListVerdict(list: AllowList, method: string, path: string): 'allowed' | 'method' | 'path' {
  if (!list) return 'allowed';
  const matches = (patterns: RegExp[] | undefined) => (patterns ?? []).some((pattern) => pattern.test(path));
  if (matches(list.get(method.toLowerCase()))) return 'allowed';
  for (const [other, patterns] of list) if (other !== method.toLowerCase() && matches(patterns)) return 'method';
  return 'path';
}
