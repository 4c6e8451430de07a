// Original file: media/v1/media_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ReservedFile {
  'name'?: (string);
  'mediaType'?: (string);
  'contentType'?: (string);
  'size'?: (number | string | Long);
}

export interface ReservedFile__Output {
  'name': (string);
  'mediaType': (string);
  'contentType': (string);
  'size': (string);
}
