// Original file: reports/v1/reports_service.proto


export interface RowBatch {
  'json'?: (string);
}

export interface RowBatch__Output {
  'json': (string);
}
