// Original file: reports/v1/reports_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';

export interface Change {
  'cursor'?: (string);
  'entity'?: (string);
  'id'?: (string);
  'operation'?: (string);
  'at'?: (string);
  'values'?: ({[key: string]: _common_v1_FieldValue});
}

export interface Change__Output {
  'cursor': (string);
  'entity': (string);
  'id': (string);
  'operation': (string);
  'at': (string);
  'values': ({[key: string]: _common_v1_FieldValue__Output});
}
