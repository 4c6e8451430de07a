// Original file: reports/v1/reports_service.proto

export const EntryType = {
  ENTRY_TYPE_UNSPECIFIED: 'ENTRY_TYPE_UNSPECIFIED',
  ENTRY_TYPE_FOLDER: 'ENTRY_TYPE_FOLDER',
  ENTRY_TYPE_REPORT: 'ENTRY_TYPE_REPORT',
} as const;

export type EntryType =
  | 'ENTRY_TYPE_UNSPECIFIED'
  | 0
  | 'ENTRY_TYPE_FOLDER'
  | 1
  | 'ENTRY_TYPE_REPORT'
  | 2

export type EntryType__Output = typeof EntryType[keyof typeof EntryType]
