// Original file: records/v1/records_service.proto

import type { Submission as _records_v1_Submission, Submission__Output as _records_v1_Submission__Output } from '../../records/v1/Submission.ts';
import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from '../../common/v1/JsonValues.ts';

export interface Submission {
  'samples'?: (_records_v1_Submission)[];
  'occurrences'?: (_records_v1_Submission)[];
  'media'?: (_records_v1_Submission)[];
  'associations'?: (_records_v1_Submission)[];
  'values'?: (_common_v1_JsonValues | null);
}

export interface Submission__Output {
  'samples': (_records_v1_Submission__Output)[];
  'occurrences': (_records_v1_Submission__Output)[];
  'media': (_records_v1_Submission__Output)[];
  'associations': (_records_v1_Submission__Output)[];
  'values': (_common_v1_JsonValues__Output | null);
}
