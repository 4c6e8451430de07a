// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';

export interface ListSurveysRequest {
  'auth'?: (_common_v1_AuthContext | null);
}

export interface ListSurveysRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
}
