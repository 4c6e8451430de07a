// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { Submission as _records_v1_Submission, Submission__Output as _records_v1_Submission__Output } from '../../records/v1/Submission.ts';

export interface CreateOccurrencesRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'submissions'?: (_records_v1_Submission)[];
  'idempotencyKey'?: (string);
}

export interface CreateOccurrencesRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'submissions': (_records_v1_Submission__Output)[];
  'idempotencyKey': (string);
}
