import type { AuthContext, Scope } from '@rex/protos';
import type { MethodName } from '../rest-config.ts';

export const SCOPES = ['userWithinWebsite', 'user', 'reporting', 'verification', 'data_flow', 'moderation', 'peer_review', 'editing'] as const;
export type ScopeName = (typeof SCOPES)[number] | 'website';

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

/** The authenticated caller of one request. */
export type Caller = {
  method: MethodName;
  entity: 'user' | 'website' | 'client';
  websiteId: string;
  /** Absent for websites, clients and anonymous tokens. */
  userId?: string;
  scope: ScopeName;
  /** Anonymous tokens may create records only where the website allows it. */
  mayPostAnonymously?: boolean;
};

export function toAuthContext(caller: Caller): AuthContext {
  return {
    entity: caller.entity === 'user' ? 'ENTITY_USER' : caller.entity === 'website' ? 'ENTITY_WEBSITE' : 'ENTITY_CLIENT',
    websiteId: caller.websiteId,
    userId: caller.userId ?? '0',
    scope: SCOPE_ENUM[caller.scope],
    method: caller.method,
  };
}
