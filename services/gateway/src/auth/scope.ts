import { HttpError } from '../http-error.ts';
import { SCOPES, type ScopeName } from './caller.ts';

function scopeList(claim: unknown): string[] | undefined {
  if (typeof claim === 'string') return claim.split(/\s+/).filter(Boolean);
  if (Array.isArray(claim)) return claim.filter((item): item is string => typeof item === 'string');
  return undefined;
}

const isScope = (value: string): value is (typeof SCOPES)[number] => (SCOPES as readonly string[]).includes(value);

/**
 * Picks the request's scope. Scopes listed in the token (`scope`, else the
 * namespaced scope claim) bound what `?scope=` may ask for; without such
 * claims the caller's default applies.
 */
export function selectScope(options: {
  tokenScope: unknown;
  namespacedScope: unknown;
  requested: string | undefined;
  fallback: ScopeName;
}): ScopeName {
  const permitted = scopeList(options.tokenScope) ?? scopeList(options.namespacedScope);
  if (!permitted) {
    if (options.requested !== undefined && options.requested !== options.fallback) {
      throw new HttpError(403, 'Attempt to access disallowed scope');
    }
    return options.fallback;
  }
  if (options.requested !== undefined) {
    if (!permitted.includes(options.requested) || !isScope(options.requested)) {
      throw new HttpError(403, 'Attempt to access disallowed scope');
    }
    return options.requested;
  }
  const first = permitted[0];
  return first !== undefined && isScope(first) ? first : 'userWithinWebsite';
}
