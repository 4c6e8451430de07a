// Original file: common/v1/auth_context.proto

import type { Entity as _common_v1_Entity, Entity__Output as _common_v1_Entity__Output } from '../../common/v1/Entity.ts';
import type { Scope as _common_v1_Scope, Scope__Output as _common_v1_Scope__Output } from '../../common/v1/Scope.ts';
import type { ClientConnection as _common_v1_ClientConnection, ClientConnection__Output as _common_v1_ClientConnection__Output } from '../../common/v1/ClientConnection.ts';
import type { Long } from '@grpc/proto-loader';

export interface AuthContext {
  'entity'?: (_common_v1_Entity);
  'websiteId'?: (number | string | Long);
  'userId'?: (number | string | Long);
  'scope'?: (_common_v1_Scope);
  'connection'?: (_common_v1_ClientConnection | null);
  'method'?: (string);
  'sharingWebsiteIds'?: (number | string | Long)[];
  'siteRole'?: (number);
}

export interface AuthContext__Output {
  'entity': (_common_v1_Entity__Output);
  'websiteId': (string);
  'userId': (string);
  'scope': (_common_v1_Scope__Output);
  'connection': (_common_v1_ClientConnection__Output | null);
  'method': (string);
  'sharingWebsiteIds': (string)[];
  'siteRole': (number);
}
