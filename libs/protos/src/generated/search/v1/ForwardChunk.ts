// Original file: search/v1/search_service.proto

import type { ResponseHead as _search_v1_ResponseHead, ResponseHead__Output as _search_v1_ResponseHead__Output } from '../../search/v1/ResponseHead.ts';

export interface ForwardChunk {
  'head'?: (_search_v1_ResponseHead | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "head"|"data";
}

export interface ForwardChunk__Output {
  'head'?: (_search_v1_ResponseHead__Output | null);
  'data'?: (Buffer);
  'part'?: "head"|"data";
}
