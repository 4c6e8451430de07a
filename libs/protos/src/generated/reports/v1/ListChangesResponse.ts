// Original file: reports/v1/reports_service.proto

import type { Change as _reports_v1_Change, Change__Output as _reports_v1_Change__Output } from '../../reports/v1/Change.ts';

export interface ListChangesResponse {
  'changes'?: (_reports_v1_Change)[];
  'nextCursor'?: (string);
  'hasMore'?: (boolean);
}

export interface ListChangesResponse__Output {
  'changes': (_reports_v1_Change__Output)[];
  'nextCursor': (string);
  'hasMore': (boolean);
}
