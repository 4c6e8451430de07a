// Original file: records/v1/records_service.proto

import type { SavedRecord as _records_v1_SavedRecord, SavedRecord__Output as _records_v1_SavedRecord__Output } from '../../records/v1/SavedRecord.ts';

export interface CreateSamplesResponse {
  'saved'?: (_records_v1_SavedRecord)[];
}

export interface CreateSamplesResponse__Output {
  'saved': (_records_v1_SavedRecord__Output)[];
}
