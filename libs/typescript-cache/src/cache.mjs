// Plain JavaScript: register.mjs imports it before any TypeScript may be loaded.
import { hash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where modules stripped ahead of time are kept: `.rex/stripped` at the root of the checkout, or of
 * an image's /app (REX_TYPESCRIPT_CACHE names another folder).
 */
export const CACHE_DIR = process.env.REX_TYPESCRIPT_CACHE || fileURLToPath(new URL('../../../.rex/stripped/', import.meta.url));

/**
 * The stripped copy of a module's TypeScript source, named by the source's SHA-256: a source that
 * changed is never given an older copy.
 */
export function strippedPath(source, dir = CACHE_DIR) {
  return join(dir, `${hash('sha256', source)}.js`);
}
