// Original file: reports/v1/reports_service.proto

export const RowForm = {
  ROW_FORM_JSON_ARRAYS: 'ROW_FORM_JSON_ARRAYS',
  ROW_FORM_CSV: 'ROW_FORM_CSV',
  ROW_FORM_NDJSON: 'ROW_FORM_NDJSON',
  ROW_FORM_JSON_OBJECTS: 'ROW_FORM_JSON_OBJECTS',
} as const;

export type RowForm =
  | 'ROW_FORM_JSON_ARRAYS'
  | 0
  | 'ROW_FORM_CSV'
  | 1
  | 'ROW_FORM_NDJSON'
  | 2
  | 'ROW_FORM_JSON_OBJECTS'
  | 3

export type RowForm__Output = typeof RowForm[keyof typeof RowForm]
