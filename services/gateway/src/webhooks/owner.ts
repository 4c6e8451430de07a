import type { AuthContext } from '@rex/protos';
import { toAuthContext, type Caller } from '../auth/caller.ts';
import { connectionCaller } from '../auth/clients.ts';
import type { Directory } from '../auth/directory.ts';
import type { Owner } from './subscriptions-repo.ts';

/**
 * The authority a subscription's owner has now, read from the live directory
 * each time it is delivered, as a request of the owner would be: a website as
 * a website caller of the default scope (reporting), a connection with its
 * current flags. `refused` says why there is none any more (the subscription
 * is then disabled): a revocation applies to the very next delivery.
 */
export async function ownerAuthority(
  directory: Directory,
  complete: (caller: Caller) => Promise<Caller>,
  owner: Owner,
): Promise<{ auth: AuthContext } | { refused: string }> {
  const website = await directory.websiteById(owner.websiteId);
  if (!website) return { refused: `Website ${owner.websiteId} is disabled or deleted.` };
  let caller: Caller;
  if (owner.clientId === null || owner.projId === null) {
    caller = { method: 'directWebsite', entity: 'website', websiteId: owner.websiteId, scope: 'reporting', credential: `website:${owner.websiteId}` };
  } else {
    const client = await directory.clientById(owner.clientId);
    const connection = client?.connections.get(owner.projId);
    if (!client || !connection) return { refused: `Connection ${owner.projId} of client ${owner.clientId} is disabled or deleted.` };
    if (!connection.allowChangeFeed) return { refused: `Connection ${owner.projId} may no longer read the change feed (allow_change_feed).` };
    caller = connectionCaller('directClient', client, connection);
  }
  return { auth: toAuthContext(await complete(caller)) };
}
