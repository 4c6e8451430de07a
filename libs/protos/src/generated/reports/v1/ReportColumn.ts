// Original file: reports/v1/reports_service.proto


export interface ReportColumn {
  'name'?: (string);
  'display'?: (string);
  'datatype'?: (string);
  'visible'?: (boolean);
}

export interface ReportColumn__Output {
  'name': (string);
  'display': (string);
  'datatype': (string);
  'visible': (boolean);
}
