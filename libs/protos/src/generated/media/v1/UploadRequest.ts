// Original file: media/v1/media_service.proto

import type { UploadHeader as _media_v1_UploadHeader, UploadHeader__Output as _media_v1_UploadHeader__Output } from '../../media/v1/UploadHeader.ts';
import type { UploadEnd as _media_v1_UploadEnd, UploadEnd__Output as _media_v1_UploadEnd__Output } from '../../media/v1/UploadEnd.ts';

export interface UploadRequest {
  'header'?: (_media_v1_UploadHeader | null);
  'data'?: (Buffer | Uint8Array | string);
  'end'?: (_media_v1_UploadEnd | null);
  'part'?: "header"|"data"|"end";
}

export interface UploadRequest__Output {
  'header'?: (_media_v1_UploadHeader__Output | null);
  'data'?: (Buffer);
  'end'?: (_media_v1_UploadEnd__Output | null);
  'part'?: "header"|"data"|"end";
}
