export { lookupHost, lookupFrom, resolveHost, type Address } from './lookup.ts';
