// Original file: reports/v1/reports_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';

export interface ExchangeRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'editedDateFrom'?: (string);
  'editedDateTo'?: (string);
  'page'?: (number);
  'pageSize'?: (number);
  'id'?: (string);
  'idPrefix'?: (string);
}

export interface ExchangeRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'editedDateFrom': (string);
  'editedDateTo': (string);
  'page': (number);
  'pageSize': (number);
  'id': (string);
  'idPrefix': (string);
}
