// Original file: reports/v1/reports_service.proto

import type { FolderEntry as _reports_v1_FolderEntry, FolderEntry__Output as _reports_v1_FolderEntry__Output } from '../../reports/v1/FolderEntry.ts';

export interface ListFolderResponse {
  'entries'?: (_reports_v1_FolderEntry)[];
}

export interface ListFolderResponse__Output {
  'entries': (_reports_v1_FolderEntry__Output)[];
}
