// Original file: records/v1/records_service.proto

import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from '../../records/v1/RecordValues.ts';

export interface ListMediaResponse {
  'media'?: (_records_v1_RecordValues)[];
  'more'?: (boolean);
}

export interface ListMediaResponse__Output {
  'media': (_records_v1_RecordValues__Output)[];
  'more': (boolean);
}
