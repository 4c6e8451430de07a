// Original file: reports/v1/reports_service.proto


export interface ReportAccess {
  'featuredOnly'?: (boolean);
  'limitToOwnData'?: (boolean);
  'authorised'?: (string)[];
  'limitToReports'?: (string)[];
}

export interface ReportAccess__Output {
  'featuredOnly': (boolean);
  'limitToOwnData': (boolean);
  'authorised': (string)[];
  'limitToReports': (string)[];
}
