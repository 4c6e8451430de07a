// Original file: records/v1/records_service.proto

import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from '../../records/v1/RecordValues.ts';

export interface ListAttributesResponse {
  'attributes'?: (_records_v1_RecordValues)[];
}

export interface ListAttributesResponse__Output {
  'attributes': (_records_v1_RecordValues__Output)[];
}
