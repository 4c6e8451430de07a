// Original file: media/v1/media_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { DownloadOf as _media_v1_DownloadOf, DownloadOf__Output as _media_v1_DownloadOf__Output } from '../../media/v1/DownloadOf.ts';
import type { FileVariant as _media_v1_FileVariant, FileVariant__Output as _media_v1_FileVariant__Output } from '../../media/v1/FileVariant.ts';
import type { ByteRange as _media_v1_ByteRange, ByteRange__Output as _media_v1_ByteRange__Output } from '../../media/v1/ByteRange.ts';

export interface DownloadRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'name'?: (string);
  'of'?: (_media_v1_DownloadOf);
  'variant'?: (_media_v1_FileVariant);
  'range'?: (_media_v1_ByteRange | null);
  'rangeIfEtag'?: (string);
  'headOnly'?: (boolean);
}

export interface DownloadRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'name': (string);
  'of': (_media_v1_DownloadOf__Output);
  'variant': (_media_v1_FileVariant__Output);
  'range': (_media_v1_ByteRange__Output | null);
  'rangeIfEtag': (string);
  'headOnly': (boolean);
}
