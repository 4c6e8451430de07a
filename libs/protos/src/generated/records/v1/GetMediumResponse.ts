// Original file: records/v1/records_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';

export interface GetMediumResponse {
  'values'?: ({[key: string]: _common_v1_FieldValue});
  'version'?: (string);
}

export interface GetMediumResponse__Output {
  'values': ({[key: string]: _common_v1_FieldValue__Output});
  'version': (string);
}
