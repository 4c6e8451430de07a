import net from 'node:net';
import { lookupHost } from '@rex/dns';

/**
 * node-postgres's socket, finding its host with @rex/dns's lookupHost rather than getaddrinfo: a
 * lookup the DNS servers never answer then cannot hold a stopping service's exit
 * (decisions/0039-database-hosts-are-looked-up-on-the-event-loop.md).
 */
class DatabaseSocket extends net.Socket {
  override connect(...target: unknown[]): this {
    const [port, host] = target;
    if (typeof port === 'number' && typeof host === 'string' && !net.isIP(host)) return super.connect({ port, host, lookup: lookupHost });
    return super.connect(...(target as Parameters<net.Socket['connect']>));
  }
}

/** For node-postgres's `stream` setting: the socket of every connection the suite opens to PostgreSQL. */
export const databaseSocket = (): net.Socket => new DatabaseSocket();
