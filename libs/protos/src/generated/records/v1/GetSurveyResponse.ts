// Original file: records/v1/records_service.proto

import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from '../../records/v1/RecordValues.ts';
import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from '../../common/v1/JsonValues.ts';

export interface GetSurveyResponse {
  'attributes'?: (_records_v1_RecordValues)[];
  'values'?: (_common_v1_JsonValues | null);
}

export interface GetSurveyResponse__Output {
  'attributes': (_records_v1_RecordValues__Output)[];
  'values': (_common_v1_JsonValues__Output | null);
}
