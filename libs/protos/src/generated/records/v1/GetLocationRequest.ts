// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { Long } from '@grpc/proto-loader';

export interface GetLocationRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'id'?: (number | string | Long);
  'verbose'?: (boolean);
}

export interface GetLocationRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'id': (string);
  'verbose': (boolean);
}
