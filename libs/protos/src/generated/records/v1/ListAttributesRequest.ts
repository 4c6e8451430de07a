// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { Long } from '@grpc/proto-loader';

export interface ListAttributesRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'entity'?: (string);
  'id'?: (number | string | Long);
  'filters'?: ({[key: string]: string});
}

export interface ListAttributesRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'entity': (string);
  'id': (string);
  'filters': ({[key: string]: string});
}
