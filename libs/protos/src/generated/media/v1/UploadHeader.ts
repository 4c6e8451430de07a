// Original file: media/v1/media_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';

export interface UploadHeader {
  'auth'?: (_common_v1_AuthContext | null);
  'field'?: (string);
  'filename'?: (string);
}

export interface UploadHeader__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'field': (string);
  'filename': (string);
}
