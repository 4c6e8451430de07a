// Original file: reports/v1/reports_service.proto

import type { EntryType as _reports_v1_EntryType, EntryType__Output as _reports_v1_EntryType__Output } from '../../reports/v1/EntryType.ts';

export interface FolderEntry {
  'name'?: (string);
  'type'?: (_reports_v1_EntryType);
  'title'?: (string);
  'description'?: (string);
  'path'?: (string);
  'featured'?: (boolean);
}

export interface FolderEntry__Output {
  'name': (string);
  'type': (_reports_v1_EntryType__Output);
  'title': (string);
  'description': (string);
  'path': (string);
  'featured': (boolean);
}
