// Original file: media/v1/media_service.proto


export interface ClaimResponse {
  'files'?: (number);
  'names'?: (string)[];
}

export interface ClaimResponse__Output {
  'files': (number);
  'names': (string)[];
}
