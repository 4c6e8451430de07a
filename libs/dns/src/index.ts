export { lookupHost, lookupFrom, resolveHost, addressesInHostsFile, namesToAsk, searchSettings, DNS_TIMEOUT_MS, DNS_TRIES, type Address } from './lookup.ts';
