// Original file: media/v1/media_service.proto

import type { Long } from '@grpc/proto-loader';

export interface DownloadHead {
  'contentType'?: (string);
  'size'?: (number | string | Long);
  'totalSize'?: (number | string | Long);
  'etag'?: (string);
  'partial'?: (boolean);
  'first'?: (number | string | Long);
  'unsatisfiable'?: (boolean);
}

export interface DownloadHead__Output {
  'contentType': (string);
  'size': (string);
  'totalSize': (string);
  'etag': (string);
  'partial': (boolean);
  'first': (string);
  'unsatisfiable': (boolean);
}
