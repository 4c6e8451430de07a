// Original file: search/v1/search_service.proto


export interface SearchOptions {
  'limitToWebsite'?: (boolean);
  'limitToOwnData'?: (boolean);
  'allowAnonymous'?: (boolean);
}

export interface SearchOptions__Output {
  'limitToWebsite': (boolean);
  'limitToOwnData': (boolean);
  'allowAnonymous': (boolean);
}
