import type { LegacyClient, LegacyProject, MethodName } from '@rex/rest-config';
import { SHARING_SCOPES, type Caller, type ClientAccess, type ScopeName } from './caller.ts';
import type { Client, Connection } from './directory.ts';
import { HttpError } from '../http-error.ts';

/** A database client's connection: read only, with its permission flags. */
export function connectionCaller(method: MethodName, client: Client, connection: Connection): Omit<Caller, 'options'> {
  const access: ClientAccess = {
    clientId: client.id,
    projId: connection.projId,
    readOnly: true,
    allowDataResources: connection.allowDataResources,
    limitToDataResources: connection.limitToDataResources,
    allowReports: connection.allowReports,
    limitToReports: connection.limitToReports,
    allowConfidential: connection.allowConfidential,
    allowSensitive: connection.allowSensitive,
    allowUnreleased: connection.allowUnreleased,
    fullPrecisionSensitiveRecords: connection.fullPrecisionSensitiveRecords,
    searchIndex: connection.searchIndex,
    allowChangeFeed: connection.allowChangeFeed,
  };
  return {
    method,
    entity: 'client',
    websiteId: connection.websiteId,
    scope: SHARING_SCOPES[connection.sharing] ?? 'reporting',
    client: access,
    credential: `client:${client.id}:${connection.projId}`,
  };
}

/** A project of a client defined in the configuration's legacy `clients` section. */
export function legacyProjectCaller(method: MethodName, clientKey: string, client: LegacyClient, projId: string, project: LegacyProject): Omit<Caller, 'options'> {
  const access: ClientAccess = {
    clientId: clientKey,
    projId,
    readOnly: false,
    resources: project.resources,
    allowDataResources: true,
    limitToDataResources: null,
    allowReports: true,
    limitToReports: null,
    allowConfidential: false,
    allowSensitive: true,
    allowUnreleased: false,
    fullPrecisionSensitiveRecords: false,
    searchIndex: project.search_index ?? project.elasticsearch ?? client.search_index ?? client.elasticsearch ?? [],
  };
  return {
    method,
    entity: 'client',
    websiteId: String(project.website_id),
    scope: project.sharing as ScopeName,
    client: access,
    credential: `legacy-client:${clientKey}:${projId}`,
  };
}

/**
 * A legacy configuration client searching without proj_id, as the warehouse
 * allows. Read conservatively: its projects must all belong to one website,
 * which is the only one searched (no sharing); confidential and unreleased
 * records stay out and sensitive ones blurred, as for any project; and it may
 * use only the end-points the client lists, or failing that every one of its
 * projects lists.
 */
export function legacyClientSearchCaller(method: MethodName, clientKey: string, client: LegacyClient): Omit<Caller, 'options'> {
  const projects = Object.values(client.projects);
  const websites = new Set(projects.map((project) => project.website_id));
  if (websites.size !== 1) throw new HttpError(400, 'Missing proj_id parameter: the projects of this client belong to more than one website.');
  const listed = (project: LegacyProject) => project.search_index ?? project.elasticsearch ?? [];
  const searchIndex = client.search_index ?? client.elasticsearch ?? listed(projects[0]).filter((name) => projects.every((project) => listed(project).includes(name)));
  return {
    method,
    entity: 'client',
    websiteId: String([...websites][0]),
    scope: 'website',
    client: {
      clientId: clientKey,
      projId: '',
      readOnly: true,
      resources: [],
      allowDataResources: false,
      limitToDataResources: null,
      allowReports: false,
      limitToReports: null,
      allowConfidential: false,
      allowSensitive: true,
      allowUnreleased: false,
      fullPrecisionSensitiveRecords: false,
      searchIndex,
    },
    credential: `legacy-client:${clientKey}`,
  };
}

/**
 * A client as a whole, for the projects resource: no project is chosen, so
 * it reaches nothing but the list of its own projects.
 */
export function wholeClientCaller(method: MethodName, clientId: string, projects: { id: string; title: string; description?: string }[]): Omit<Caller, 'options'> {
  return {
    method,
    entity: 'client',
    websiteId: '0',
    scope: 'reporting',
    client: {
      clientId,
      projId: '',
      readOnly: true,
      resources: ['projects'],
      allowDataResources: false,
      limitToDataResources: null,
      allowReports: false,
      limitToReports: null,
      allowConfidential: false,
      allowSensitive: false,
      allowUnreleased: false,
      fullPrecisionSensitiveRecords: false,
      searchIndex: [],
      projects,
    },
    credential: `client:${clientId}`,
  };
}

/** A legacy client's projects as the projects resource shows them (internal keys left out). */
export function legacyProjects(client: LegacyClient): { id: string; title: string; description?: string }[] {
  return Object.entries(client.projects).map(([id, project]) => ({ id, title: project.title, ...(project.description ? { description: project.description } : {}) }));
}
