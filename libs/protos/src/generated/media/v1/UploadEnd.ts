// Original file: media/v1/media_service.proto

import type { Long } from '@grpc/proto-loader';

export interface UploadEnd {
  'size'?: (number | string | Long);
}

export interface UploadEnd__Output {
  'size': (string);
}
