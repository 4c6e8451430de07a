// Original file: reports/v1/reports_service.proto


export interface RowBatch {
  'json'?: (string);
  'text'?: (Buffer | Uint8Array | string);
  'count'?: (number);
}

export interface RowBatch__Output {
  'json': (string);
  'text': (Buffer);
  'count': (number);
}
