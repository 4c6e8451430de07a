import { createHmac } from 'node:crypto';
import { HttpError } from '../http-error.ts';
import { entryOf, type RestConfig } from '@rex/rest-config';
import type { AuthRequest, Authenticator } from './authenticate.ts';
import { legacyClientSearchCaller, legacyProjectCaller, legacyProjects, wholeClientCaller } from './clients.ts';
import { headerParts, isDigits } from './credentials.ts';
import { namedScope, websiteUser } from './direct.ts';
import type { Directory } from './directory.ts';
import { sameSecret } from './secrets.ts';

/** Lower-case hex HMAC-SHA1 of the complete request URL (with its query string), keyed with the shared secret. */
export function urlSignature(url: string, secret: string): string {
  return createHmac('sha1', secret).update(url).digest('hex');
}

const signatureMatches = (req: AuthRequest, given: string, secret: string) => sameSecret(given.toLowerCase(), urlSignature(req.url, secret));

/** hmacWebsite: `WEBSITE_ID:<id>:HMAC:<hex>`; `scope` and `user_id` come from the signed URL. */
export function hmacWebsite(directory: Directory): Authenticator {
  return async (req) => {
    const header = headerParts(req, 'hmacWebsite');
    if (!header) return undefined;
    const [websiteId, signature] = header;
    if (!isDigits(websiteId)) throw new HttpError(401, 'Website ID incorrect format.');
    const website = await directory.websiteById(websiteId);
    if (!website) throw new HttpError(401, 'Unrecognised website ID.');
    if (!signatureMatches(req, signature!, website.password)) throw new HttpError(401, 'Supplied HMAC authorization incorrect.');
    const userId = req.query.user_id;
    if (userId !== undefined && userId !== '') {
      if (!isDigits(userId)) throw new HttpError(401, 'User ID or website ID incorrect format.');
      return websiteUser(directory, 'hmacWebsite', req, { userId, websiteId }, req.query.scope);
    }
    return {
      method: 'hmacWebsite',
      entity: 'website',
      websiteId,
      scope: namedScope(req.query.scope) ?? 'reporting',
      mayPostAnonymously: website.allowAnonJwtPost,
      credential: `website:${websiteId}`,
    };
  };
}

/**
 * hmacClient: `USER:<client id>:HMAC:<hex>`, for the configuration's legacy
 * clients only (database clients keep no plain secret to sign with).
 */
export function hmacClient(config: RestConfig): Authenticator {
  return async (req) => {
    const header = headerParts(req, 'hmacClient');
    if (!header) return undefined;
    const [clientKey, signature] = header;
    const legacy = entryOf(config.clients, clientKey);
    if (!legacy || !signatureMatches(req, signature!, legacy.shared_secret)) return undefined;
    if (req.resource === 'projects') return wholeClientCaller('hmacClient', clientKey!, legacyProjects(legacy));
    const projId = req.query.proj_id;
    if (!projId && req.search) return legacyClientSearchCaller('hmacClient', clientKey!, legacy);
    const project = entryOf(legacy.projects, projId);
    if (!project) throw new HttpError(400, 'Project ID missing or invalid.');
    return legacyProjectCaller('hmacClient', clientKey!, legacy, projId!, project);
  };
}
