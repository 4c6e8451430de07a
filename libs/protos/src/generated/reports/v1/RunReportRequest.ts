// Original file: reports/v1/reports_service.proto

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from '../../common/v1/AuthContext.ts';
import type { ReportAccess as _reports_v1_ReportAccess, ReportAccess__Output as _reports_v1_ReportAccess__Output } from '../../reports/v1/ReportAccess.ts';
import type { RowForm as _reports_v1_RowForm, RowForm__Output as _reports_v1_RowForm__Output } from '../../reports/v1/RowForm.ts';

export interface RunReportRequest {
  'auth'?: (_common_v1_AuthContext | null);
  'path'?: (string);
  'parameters'?: ({[key: string]: string});
  'limit'?: (number);
  'offset'?: (number);
  'orderBy'?: (string);
  'sortDir'?: (string);
  'columns'?: (string)[];
  'wantCount'?: (boolean);
  'access'?: (_reports_v1_ReportAccess | null);
  'rowForm'?: (_reports_v1_RowForm);
}

export interface RunReportRequest__Output {
  'auth': (_common_v1_AuthContext__Output | null);
  'path': (string);
  'parameters': ({[key: string]: string});
  'limit': (number);
  'offset': (number);
  'orderBy': (string);
  'sortDir': (string);
  'columns': (string)[];
  'wantCount': (boolean);
  'access': (_reports_v1_ReportAccess__Output | null);
  'rowForm': (_reports_v1_RowForm__Output);
}
