// Original file: records/v1/records_service.proto

import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from '../../records/v1/RecordValues.ts';

export interface AttributeDetails {
  'multiValue'?: (boolean);
  'values'?: (_records_v1_RecordValues)[];
}

export interface AttributeDetails__Output {
  'multiValue': (boolean);
  'values': (_records_v1_RecordValues__Output)[];
}
