// Original file: media/v1/media_service.proto

import type { DownloadHead as _media_v1_DownloadHead, DownloadHead__Output as _media_v1_DownloadHead__Output } from '../../media/v1/DownloadHead.ts';

export interface DownloadChunk {
  'head'?: (_media_v1_DownloadHead | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "head"|"data";
}

export interface DownloadChunk__Output {
  'head'?: (_media_v1_DownloadHead__Output | null);
  'data'?: (Buffer);
  'part'?: "head"|"data";
}
