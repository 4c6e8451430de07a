// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { Submission as _records_v1_Submission, Submission__Output as _records_v1_Submission__Output } from '../../records/v1/Submission.ts';
import type { Long } from '@grpc/proto-loader';

export interface UpdateSurveyAttributeRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'surveyId'?: (number | string | Long);
  'attributeId'?: (number | string | Long);
  'submission'?: (_records_v1_Submission | null);
}

export interface UpdateSurveyAttributeRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'surveyId': (string);
  'attributeId': (string);
  'submission': (_records_v1_Submission__Output | null);
}
