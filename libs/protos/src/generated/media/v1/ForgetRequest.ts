// Original file: media/v1/media_service.proto


export interface ForgetRequest {
  'names'?: (string)[];
}

export interface ForgetRequest__Output {
  'names': (string)[];
}
