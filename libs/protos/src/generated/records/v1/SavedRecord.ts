// Original file: records/v1/records_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';
import type { SavedRecord as _records_v1_SavedRecord, SavedRecord__Output as _records_v1_SavedRecord__Output } from '../../records/v1/SavedRecord.ts';

export interface SavedRecord {
  'entity'?: (string);
  'values'?: ({[key: string]: _common_v1_FieldValue});
  'samples'?: (_records_v1_SavedRecord)[];
  'occurrences'?: (_records_v1_SavedRecord)[];
  'media'?: (_records_v1_SavedRecord)[];
  'version'?: (string);
  'replayed'?: (boolean);
}

export interface SavedRecord__Output {
  'entity': (string);
  'values': ({[key: string]: _common_v1_FieldValue__Output});
  'samples': (_records_v1_SavedRecord__Output)[];
  'occurrences': (_records_v1_SavedRecord__Output)[];
  'media': (_records_v1_SavedRecord__Output)[];
  'version': (string);
  'replayed': (boolean);
}
