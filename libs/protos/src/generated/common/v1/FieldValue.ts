// Original file: common/v1/values.proto

import type { TextList as _common_v1_TextList, TextList__Output as _common_v1_TextList__Output } from '../../common/v1/TextList.ts';

export interface FieldValue {
  'text'?: (string);
  'null'?: (boolean);
  'list'?: (_common_v1_TextList | null);
  'kind'?: "text"|"null"|"list";
}

export interface FieldValue__Output {
  'text'?: (string);
  'null'?: (boolean);
  'list'?: (_common_v1_TextList__Output | null);
  'kind'?: "text"|"null"|"list";
}
