// Original file: reports/v1/reports_service.proto


export interface ReportParameter {
  'name'?: (string);
  'display'?: (string);
  'description'?: (string);
  'datatype'?: (string);
  'hasDefault'?: (boolean);
  'default'?: (string);
  'lookupValues'?: ({[key: string]: string});
  'aliases'?: (string)[];
}

export interface ReportParameter__Output {
  'name': (string);
  'display': (string);
  'description': (string);
  'datatype': (string);
  'hasDefault': (boolean);
  'default': (string);
  'lookupValues': ({[key: string]: string});
  'aliases': (string)[];
}
