// Original file: reports/v1/reports_service.proto

import type { ReportHead as _reports_v1_ReportHead, ReportHead__Output as _reports_v1_ReportHead__Output } from '../../reports/v1/ReportHead.ts';
import type { RowBatch as _reports_v1_RowBatch, RowBatch__Output as _reports_v1_RowBatch__Output } from '../../reports/v1/RowBatch.ts';

export interface RunReportChunk {
  'head'?: (_reports_v1_ReportHead | null);
  'rows'?: (_reports_v1_RowBatch | null);
  'part'?: "head"|"rows";
}

export interface RunReportChunk__Output {
  'head'?: (_reports_v1_ReportHead__Output | null);
  'rows'?: (_reports_v1_RowBatch__Output | null);
  'part'?: "head"|"rows";
}
