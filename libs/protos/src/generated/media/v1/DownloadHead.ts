// Original file: media/v1/media_service.proto

import type { Long } from '@grpc/proto-loader';

export interface DownloadHead {
  'contentType'?: (string);
  'size'?: (number | string | Long);
}

export interface DownloadHead__Output {
  'contentType': (string);
  'size': (string);
}
