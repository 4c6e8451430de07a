// Original file: records/v1/records_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';
import type { Submission as _records_v1_Submission, Submission__Output as _records_v1_Submission__Output } from '../../records/v1/Submission.ts';

export interface Submission {
  'values'?: ({[key: string]: _common_v1_FieldValue});
  'samples'?: (_records_v1_Submission)[];
  'occurrences'?: (_records_v1_Submission)[];
  'media'?: (_records_v1_Submission)[];
  'associations'?: (_records_v1_Submission)[];
}

export interface Submission__Output {
  'values': ({[key: string]: _common_v1_FieldValue__Output});
  'samples': (_records_v1_Submission__Output)[];
  'occurrences': (_records_v1_Submission__Output)[];
  'media': (_records_v1_Submission__Output)[];
  'associations': (_records_v1_Submission__Output)[];
}
