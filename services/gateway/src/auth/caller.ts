import type { AuthContext, Scope } from '@rex/protos';
import type { MethodName, MethodOptions } from '@rex/rest-config';

export const SCOPES = ['userWithinWebsite', 'user', 'reporting', 'verification', 'data_flow', 'moderation', 'peer_review', 'editing'] as const;
export type ScopeName = (typeof SCOPES)[number] | 'website';

export const isScope = (value: string): value is (typeof SCOPES)[number] => (SCOPES as readonly string[]).includes(value);

/** Connection sharing codes and the scope each gives. */
export const SHARING_SCOPES: Record<string, ScopeName> = {
  R: 'reporting',
  V: 'verification',
  D: 'data_flow',
  M: 'moderation',
  P: 'peer_review',
  E: 'editing',
};

const SCOPE_ENUM: Record<ScopeName, Scope> = {
  userWithinWebsite: 'SCOPE_USER_WITHIN_WEBSITE',
  user: 'SCOPE_USER',
  reporting: 'SCOPE_REPORTING',
  verification: 'SCOPE_VERIFICATION',
  data_flow: 'SCOPE_DATA_FLOW',
  moderation: 'SCOPE_MODERATION',
  peer_review: 'SCOPE_PEER_REVIEW',
  editing: 'SCOPE_EDITING',
  website: 'SCOPE_WEBSITE',
};

/** A client caller: a connection (database client) or a project (legacy configuration client). */
export type ClientAccess = {
  clientId: string;
  projId: string;
  /** Database connections are read only. */
  readOnly: boolean;
  /** Legacy projects list the resources they may use. */
  resources?: string[];
  allowDataResources: boolean;
  limitToDataResources: string[] | null;
  allowReports: boolean;
  limitToReports: string[] | null;
  allowConfidential: boolean;
  allowSensitive: boolean;
  allowUnreleased: boolean;
  fullPrecisionSensitiveRecords: boolean;
  searchIndex: string[];
  /** May read the change feed (a connection flag; legacy projects never). */
  allowChangeFeed?: boolean;
  /** The client's projects, for the projects resource (which needs no proj_id). */
  projects?: { id: string; title: string; description?: string }[];
};

/** The authenticated caller of one request. */
export type Caller = {
  method: MethodName;
  entity: 'user' | 'website' | 'client';
  websiteId: string;
  /** Absent for websites, clients and anonymous tokens. */
  userId?: string;
  /** The user's role on the website: 1 admin, 2 editor, 3 user. */
  role?: number;
  scope: ScopeName;
  /** Callers without a user may create records only where the website allows it. */
  mayPostAnonymously?: boolean;
  client?: ClientAccess;
  /** The options of the method that admitted the caller (CORS, resource options). */
  options?: MethodOptions;
  /** Identifies the credential for rate limiting. */
  credential: string;
  /** For sharing scopes: the websites whose records the caller sees (its own included). */
  sharingWebsiteIds?: string[];
};

/** The sharing task a scope stands for; user scopes and `website` have none. */
export const SCOPE_TASKS: Partial<Record<ScopeName, string>> = {
  reporting: 'R',
  verification: 'V',
  data_flow: 'D',
  moderation: 'M',
  peer_review: 'P',
  editing: 'E',
};

export function toAuthContext(caller: Caller): AuthContext {
  const client = caller.client;
  return {
    entity: caller.entity === 'user' ? 'ENTITY_USER' : caller.entity === 'website' ? 'ENTITY_WEBSITE' : 'ENTITY_CLIENT',
    websiteId: caller.websiteId,
    userId: caller.userId ?? '0',
    scope: SCOPE_ENUM[caller.scope],
    method: caller.method,
    sharingWebsiteIds: caller.sharingWebsiteIds ?? [],
    siteRole: caller.role ?? 0,
    connection: client
      ? {
          clientId: client.clientId,
          projId: client.projId,
          allowConfidential: client.allowConfidential,
          allowSensitive: client.allowSensitive,
          allowUnreleased: client.allowUnreleased,
          fullPrecisionSensitiveRecords: client.fullPrecisionSensitiveRecords,
        }
      : undefined,
  };
}
