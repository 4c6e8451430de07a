// Original file: search/v1/search_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { SearchOptions as _search_v1_SearchOptions, SearchOptions__Output as _search_v1_SearchOptions__Output } from '../../search/v1/SearchOptions.ts';

export interface ForwardRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'endpoint'?: (string);
  'method'?: (string);
  'query'?: (string);
  'body'?: (Buffer | Uint8Array | string);
  'options'?: (_search_v1_SearchOptions | null);
  'segments'?: (string)[];
}

export interface ForwardRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'endpoint': (string);
  'method': (string);
  'query': (string);
  'body': (Buffer);
  'options': (_search_v1_SearchOptions__Output | null);
  'segments': (string)[];
}
