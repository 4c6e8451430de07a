// Original file: common/v1/values.proto


export interface JsonValues {
  'json'?: (string);
}

export interface JsonValues__Output {
  'json': (string);
}
