// Original file: records/v1/records_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';
import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from '../../records/v1/RecordValues.ts';

export interface GetSurveyResponse {
  'values'?: ({[key: string]: _common_v1_FieldValue});
  'attributes'?: (_records_v1_RecordValues)[];
}

export interface GetSurveyResponse__Output {
  'values': ({[key: string]: _common_v1_FieldValue__Output});
  'attributes': (_records_v1_RecordValues__Output)[];
}
