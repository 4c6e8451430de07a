export { TtlCache } from './ttl-cache.ts';
