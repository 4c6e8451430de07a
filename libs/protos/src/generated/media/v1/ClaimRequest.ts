// Original file: media/v1/media_service.proto


export interface ClaimRequest {
  'claimId'?: (string);
  'names'?: (string)[];
}

export interface ClaimRequest__Output {
  'claimId': (string);
  'names': (string)[];
}
