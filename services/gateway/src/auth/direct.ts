import { HttpError } from '../http-error.ts';
import { entryOf, type RestConfig } from '@rex/rest-config';
import type { AuthRequest, Authenticator } from './authenticate.ts';
import { isScope, type Caller, type ScopeName } from './caller.ts';
import { connectionCaller, legacyClientSearchCaller, legacyProjectCaller, legacyProjects, wholeClientCaller } from './clients.ts';
import { headerParts, isDigits, urlCredentials } from './credentials.ts';
import type { Directory } from './directory.ts';
import { sameSecret } from './secrets.ts';

/** A scope the caller names itself (direct and HMAC methods): any known scope, else 403. */
export function namedScope(scope: string | undefined): ScopeName | undefined {
  if (scope === undefined || scope === '') return undefined;
  if (!isScope(scope)) throw new HttpError(403, 'Attempt to access disallowed scope');
  return scope;
}

/**
 * A user of a website, admitted by the website's password (directUser, or a
 * website method naming a user): the user needs a role on the website.
 */
export async function websiteUser(
  directory: Directory,
  method: Caller['method'],
  req: AuthRequest,
  ids: { userId: string; websiteId: string },
  scope: string | undefined,
): Promise<Omit<Caller, 'options'>> {
  const role = await directory.roleOf(ids.userId, ids.websiteId);
  if (role === null) throw new HttpError(401, 'Unrecognised user ID or password.');
  const fallback: ScopeName = role === 3 || req.resource === 'reports' ? 'userWithinWebsite' : 'website';
  return {
    method,
    entity: 'user',
    websiteId: ids.websiteId,
    userId: ids.userId,
    role,
    scope: namedScope(scope) ?? fallback,
    credential: `user:${ids.userId}:${ids.websiteId}`,
  };
}

/** directUser: `USER_ID:<id>:WEBSITE_ID:<id>:SECRET:<website password>[:SCOPE:<scope>]`. */
export function directUser(directory: Directory): Authenticator {
  return async (req) => {
    const header = headerParts(req, 'directUser');
    const url = header ? undefined : urlCredentials(req, ['user_id', 'website_id', 'secret']);
    if (!header && !url) return undefined;
    const [userId, websiteId, secret, scope] = header ?? [url!.user_id, url!.website_id, url!.secret, req.query.scope];
    if (!isDigits(userId) || !isDigits(websiteId)) throw new HttpError(401, 'User ID or website ID incorrect format.');
    const website = await directory.websiteById(websiteId);
    if (!website || !sameSecret(secret ?? '', website.password)) throw new HttpError(401, 'Incorrect password for user.');
    return websiteUser(directory, 'directUser', req, { userId, websiteId }, scope);
  };
}

/** directWebsite: `WEBSITE_ID:<id>:SECRET:<password>[:SCOPE:<scope>[:USER_ID:<id>]]`. */
export function directWebsite(directory: Directory): Authenticator {
  return async (req) => {
    const header = headerParts(req, 'directWebsite');
    const url = header ? undefined : urlCredentials(req, ['website_id', 'secret']);
    if (!header && !url) return undefined;
    const [websiteId, secret, scope, userId] = header ?? [url!.website_id, url!.secret, req.query.scope, req.query.user_id];
    if (!isDigits(websiteId)) throw new HttpError(401, 'Website ID incorrect format.');
    const website = await directory.websiteById(websiteId);
    if (!website || !sameSecret(secret ?? '', website.password)) throw new HttpError(401, 'Unrecognised website ID or password.');
    if (userId !== undefined && userId !== '') {
      if (!isDigits(userId)) throw new HttpError(401, 'User ID or website ID incorrect format.');
      return websiteUser(directory, 'directWebsite', req, { userId, websiteId }, scope);
    }
    return {
      method: 'directWebsite',
      entity: 'website',
      websiteId,
      scope: namedScope(scope) ?? 'reporting',
      mayPostAnonymously: website.allowAnonJwtPost,
      credential: `website:${websiteId}`,
    };
  };
}

/**
 * directClient: `USER:<client username>:SECRET:<secret>` with `proj_id`. The
 * client is a database client (hashed secret, read-only connections) or, for
 * legacy use, one of the configuration's `clients` (plain shared secret).
 */
export function directClient(directory: Directory, config: RestConfig): Authenticator {
  return async (req) => {
    const header = headerParts(req, 'directClient');
    const url = header ? undefined : urlCredentials(req, ['user', 'secret']);
    if (!header && !url) return undefined;
    const [username, secret] = header ?? [url!.user, url!.secret];
    const projId = req.query.proj_id;
    const legacy = entryOf(config.clients, username);
    if (legacy) {
      if (!sameSecret(secret ?? '', legacy.shared_secret)) throw new HttpError(401, 'Unable to authorise');
      if (req.resource === 'projects') return wholeClientCaller('directClient', username!, legacyProjects(legacy));
      if (!projId && req.search) return legacyClientSearchCaller('directClient', username!, legacy);
      if (!projId) throw new HttpError(400, 'Missing proj_id parameter.');
      const project = entryOf(legacy.projects, projId);
      if (!project) throw new HttpError(400, 'Invalid proj_id parameter.');
      return legacyProjectCaller('directClient', username!, legacy, projId, project);
    }
    const client = await directory.clientByUsername(username!);
    if (!client) {
      await directory.unknownClientAttempt(username!);
      throw new HttpError(401, 'Unable to authorise');
    }
    // The same answer as for an unknown client, so usernames cannot be found by trying them.
    if (!(await directory.clientSecretMatches(client, secret ?? ''))) throw new HttpError(401, 'Unable to authorise');
    if (req.resource === 'projects') {
      return wholeClientCaller('directClient', client.id, [...client.connections.values()].map((c) => ({ id: c.projId, title: c.title })));
    }
    const connection = projId ? client.connections.get(projId) : undefined;
    if (!connection) throw new HttpError(401, projId ? 'Invalid client system ID' : 'Missing proj_id parameter.');
    return connectionCaller('directClient', client, connection);
  };
}
