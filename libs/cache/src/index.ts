export { Invalidation, TtlCache } from './ttl-cache.ts';
