// Original file: reports/v1/reports_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ReportHead {
  'count'?: (number | string | Long);
  'columns'?: (string)[];
  'countUnknown'?: (boolean);
  'unknownParameters'?: (string)[];
}

export interface ReportHead__Output {
  'count': (string);
  'columns': (string)[];
  'countUnknown': (boolean);
  'unknownParameters': (string)[];
}
