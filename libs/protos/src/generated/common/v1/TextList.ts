// Original file: common/v1/values.proto


export interface TextList {
  'items'?: (string)[];
}

export interface TextList__Output {
  'items': (string)[];
}
