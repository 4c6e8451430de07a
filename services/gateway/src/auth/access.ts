import { HttpError } from '../http-error.ts';
import type { Caller } from './caller.ts';
import { WRITE_METHODS } from './credentials.ts';

/** Resources that are not "data resources" for a connection's data-resource permissions. */
const NON_DATA_RESOURCES = new Set(['reports', 'projects', 'changes', 'webhooks']);
/** What a read-only connection may still write: its own webhook subscriptions, never records. */
const CONNECTION_SETTINGS = new Set(['webhooks']);

/**
 * What a client may reach, checked once it is authenticated: legacy projects
 * only the resources they list, database connections only reading, and only
 * the data resources their permissions allow.
 */
export function checkClientAccess(caller: Caller, resource: string, httpMethod: string, search = false): void {
  const client = caller.client;
  if (!client) return;
  if (search) {
    // Searching is a POST too; only jwtClient connections are strictly read only here.
    if (httpMethod !== 'GET' && (httpMethod !== 'POST' || caller.method === 'jwtClient')) throw new HttpError(405, 'Connection is read only.');
    return;
  }
  if (client.resources && !client.resources.includes(resource)) {
    throw new HttpError(403, `Resource ${resource} is not available to project ${client.projId}.`);
  }
  if (client.readOnly && WRITE_METHODS.has(httpMethod) && !CONNECTION_SETTINGS.has(resource)) throw new HttpError(405, 'Connection is read only.');
  if (NON_DATA_RESOURCES.has(resource)) return;
  if (!client.allowDataResources) throw new HttpError(401, 'Access to data resources unauthorised');
  if (client.limitToDataResources && !client.limitToDataResources.includes(resource)) {
    throw new HttpError(403, `Unauthorised data resource ${resource} requested - limited to ${client.limitToDataResources.join(', ')}`);
  }
}
