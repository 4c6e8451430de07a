// Original file: reports/v1/reports_service.proto

import type { Row as _reports_v1_Row, Row__Output as _reports_v1_Row__Output } from '../../reports/v1/Row.ts';

export interface RowBatch {
  'rows'?: (_reports_v1_Row)[];
}

export interface RowBatch__Output {
  'rows': (_reports_v1_Row__Output)[];
}
