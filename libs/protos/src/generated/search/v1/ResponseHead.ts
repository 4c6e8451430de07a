// Original file: search/v1/search_service.proto


export interface ResponseHead {
  'status'?: (number);
  'contentType'?: (string);
}

export interface ResponseHead__Output {
  'status': (number);
  'contentType': (string);
}
