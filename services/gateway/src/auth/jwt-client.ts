import { TtlCache, type Invalidation } from '@rex/cache';
import { HttpError } from '../http-error.ts';
import type { AuthRequest, Authenticator } from './authenticate.ts';
import { connectionCaller } from './clients.ts';
import type { Client, Connection, Directory } from './directory.ts';
import { bearerToken, peekPayload, type JwtPayload } from './jwt.ts';

/**
 * jwtClient: a token signed with a REST client's key, for one of its
 * connections (`proj_id` in the query string). The client is named either by
 * `iss` = `<website url>:<client username>` or by the namespaced
 * `client:username` claim beside `iss` = website url.
 */
export function jwtClient(directory: Directory, claimNamespace: string, cacheTtlMs: number, changes?: Invalidation): Authenticator {
  const clientClaim = `http://${claimNamespace}/client:username`;
  // A verified token for a connection is remembered (until it expires, and no
  // longer than the directory's cache), so repeated requests skip the lookups.
  const admitted = new TtlCache<{ client: Client; connection: Connection }>(cacheTtlMs, 20_000, changes);

  async function clientAndWebsite(payload: JwtPayload & { iss: string }): Promise<{ username: string; websiteUrl: string } | undefined> {
    const claimed = payload[clientClaim];
    if (typeof claimed === 'string' && claimed) return { username: claimed, websiteUrl: payload.iss };
    if (await directory.websiteByUrl(payload.iss)) return undefined;
    const colon = payload.iss.lastIndexOf(':');
    if (colon <= 0) return undefined;
    return { username: payload.iss.slice(colon + 1), websiteUrl: payload.iss.slice(0, colon) };
  }

  return async (req: AuthRequest) => {
    const token = bearerToken(req.authorization);
    const projId = req.query.proj_id;
    if (!token || !projId) return undefined;
    const cacheKey = `${projId}\0${token}`;
    const known = admitted.get(cacheKey);
    if (known) return connectionCaller('jwtClient', known.client, known.connection);
    const payload = peekPayload(token);
    const names = await clientAndWebsite(payload);
    if (!names) return undefined;
    // Until the token's signature is checked, every refusal reads the same, so that client names
    // cannot be told from unknown ones.
    const client = await directory.clientByUsername(names.username);
    if (!client) throw new HttpError(401, 'Unable to authorise');
    if (client.badKey) throw new HttpError(500, 'The public key stored for the client cannot be read.');
    if (!client.keys) throw new HttpError(401, 'Unable to authorise');
    let untilExpiry: number;
    try {
      const checked = await client.keys.verify(token);
      untilExpiry = typeof checked.exp === 'number' ? checked.exp * 1000 - Date.now() : cacheTtlMs;
    } catch {
      throw new HttpError(401, 'Unable to authorise');
    }
    const connection = client.connections.get(projId);
    const website = await directory.websiteByUrl(names.websiteUrl);
    if (!connection || !website || website.id !== connection.websiteId) throw new HttpError(401, 'Invalid client system ID');
    admitted.set(cacheKey, { client, connection }, Math.min(untilExpiry, cacheTtlMs));
    return connectionCaller('jwtClient', client, connection);
  };
}
