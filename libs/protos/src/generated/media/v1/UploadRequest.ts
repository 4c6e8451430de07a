// Original file: media/v1/media_service.proto

import type { UploadHeader as _media_v1_UploadHeader, UploadHeader__Output as _media_v1_UploadHeader__Output } from '../../media/v1/UploadHeader.ts';

export interface UploadRequest {
  'header'?: (_media_v1_UploadHeader | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "header"|"data";
}

export interface UploadRequest__Output {
  'header'?: (_media_v1_UploadHeader__Output | null);
  'data'?: (Buffer);
  'part'?: "header"|"data";
}
