// Original file: records/v1/records_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { Long } from '@grpc/proto-loader';

export interface RemoveSurveyAttributeRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'surveyId'?: (number | string | Long);
  'attributeId'?: (number | string | Long);
}

export interface RemoveSurveyAttributeRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'surveyId': (string);
  'attributeId': (string);
}
