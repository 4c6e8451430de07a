/** A configured expression: PHP-style `/re/flags` or a bare expression such as `^_search`. */
export function compilePattern(pattern: string): RegExp {
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  return delimited ? new RegExp(delimited[1], delimited[2].replace(/[^imsu]/g, '')) : new RegExp(pattern);
}

export type AllowList = Map<string, RegExp[]> | undefined;

/** `allowed`: lower-case method → {expression: description}; absent means anything is allowed. */
export function compileAllowList(allowed: Record<string, Record<string, string>> | undefined): AllowList {
  if (!allowed) return undefined;
  return new Map(Object.entries(allowed).map(([method, patterns]) => [method.toLowerCase(), Object.keys(patterns).map(compilePattern)]));
}

export function isAllowed(list: AllowList, method: string, path: string): boolean {
  if (!list) return true;
  return (list.get(method.toLowerCase()) ?? []).some((pattern) => pattern.test(path));
}
