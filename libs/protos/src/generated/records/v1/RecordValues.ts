// Original file: records/v1/records_service.proto

import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from '../../common/v1/JsonValues.ts';

export interface RecordValues {
  'values'?: (_common_v1_JsonValues | null);
}

export interface RecordValues__Output {
  'values': (_common_v1_JsonValues__Output | null);
}
