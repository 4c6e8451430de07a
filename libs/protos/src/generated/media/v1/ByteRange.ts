// Original file: media/v1/media_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ByteRange {
  'first'?: (number | string | Long);
  'last'?: (number | string | Long);
  'suffix'?: (number | string | Long);
}

export interface ByteRange__Output {
  'first': (string);
  'last': (string);
  'suffix': (string);
}
