// Original file: reports/v1/reports_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';

export interface Row {
  'values'?: (_common_v1_FieldValue)[];
}

export interface Row__Output {
  'values': (_common_v1_FieldValue__Output)[];
}
