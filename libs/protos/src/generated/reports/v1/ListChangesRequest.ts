// Original file: reports/v1/reports_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';

export interface ListChangesRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'cursor'?: (string);
  'fromBeginning'?: (boolean);
  'limit'?: (number);
  'entities'?: (string)[];
  'waitMs'?: (number);
  'ownOnly'?: (boolean);
}

export interface ListChangesRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'cursor': (string);
  'fromBeginning': (boolean);
  'limit': (number);
  'entities': (string)[];
  'waitMs': (number);
  'ownOnly': (boolean);
}
