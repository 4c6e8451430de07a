// Original file: reports/v1/reports_service.proto

import type { ReportParameter as _reports_v1_ReportParameter, ReportParameter__Output as _reports_v1_ReportParameter__Output } from '../../reports/v1/ReportParameter.ts';
import type { ReportColumn as _reports_v1_ReportColumn, ReportColumn__Output as _reports_v1_ReportColumn__Output } from '../../reports/v1/ReportColumn.ts';

export interface DescribeReportResponse {
  'title'?: (string);
  'description'?: (string);
  'parameters'?: (_reports_v1_ReportParameter)[];
  'columns'?: (_reports_v1_ReportColumn)[];
}

export interface DescribeReportResponse__Output {
  'title': (string);
  'description': (string);
  'parameters': (_reports_v1_ReportParameter__Output)[];
  'columns': (_reports_v1_ReportColumn__Output)[];
}
