// Original file: records/v1/records_service.proto

import type { SavedRecord as _records_v1_SavedRecord, SavedRecord__Output as _records_v1_SavedRecord__Output } from '../../records/v1/SavedRecord.ts';
import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from '../../common/v1/JsonValues.ts';

export interface SavedRecord {
  'entity'?: (string);
  'samples'?: (_records_v1_SavedRecord)[];
  'occurrences'?: (_records_v1_SavedRecord)[];
  'media'?: (_records_v1_SavedRecord)[];
  'version'?: (string);
  'replayed'?: (boolean);
  'values'?: (_common_v1_JsonValues | null);
}

export interface SavedRecord__Output {
  'entity': (string);
  'samples': (_records_v1_SavedRecord__Output)[];
  'occurrences': (_records_v1_SavedRecord__Output)[];
  'media': (_records_v1_SavedRecord__Output)[];
  'version': (string);
  'replayed': (boolean);
  'values': (_common_v1_JsonValues__Output | null);
}
