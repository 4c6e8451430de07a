// Original file: media/v1/media_service.proto

import type { Long } from '@grpc/proto-loader';

export interface QueuedFile {
  'name'?: (string);
  'contentType'?: (string);
  'size'?: (number | string | Long);
  'mediaType'?: (string);
}

export interface QueuedFile__Output {
  'name': (string);
  'contentType': (string);
  'size': (string);
  'mediaType': (string);
}
