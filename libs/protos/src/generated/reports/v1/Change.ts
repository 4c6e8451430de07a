// Original file: reports/v1/reports_service.proto

import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from '../../common/v1/JsonValues.ts';

export interface Change {
  'cursor'?: (string);
  'entity'?: (string);
  'id'?: (string);
  'operation'?: (string);
  'at'?: (string);
  'values'?: (_common_v1_JsonValues | null);
}

export interface Change__Output {
  'cursor': (string);
  'entity': (string);
  'id': (string);
  'operation': (string);
  'at': (string);
  'values': (_common_v1_JsonValues__Output | null);
}
