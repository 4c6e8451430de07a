// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { MediaParent as _records_v1_MediaParent, MediaParent__Output as _records_v1_MediaParent__Output } from '../../records/v1/MediaParent.ts';
import type { Submission as _records_v1_Submission, Submission__Output as _records_v1_Submission__Output } from '../../records/v1/Submission.ts';

export interface CreateMediumRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'parent'?: (_records_v1_MediaParent);
  'submission'?: (_records_v1_Submission | null);
  'idempotencyKey'?: (string);
}

export interface CreateMediumRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'parent': (_records_v1_MediaParent__Output);
  'submission': (_records_v1_Submission__Output | null);
  'idempotencyKey': (string);
}
