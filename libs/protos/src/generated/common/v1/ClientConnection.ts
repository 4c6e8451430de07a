// Original file: common/v1/auth_context.proto


export interface ClientConnection {
  'clientId'?: (string);
  'projId'?: (string);
  'allowConfidential'?: (boolean);
  'allowSensitive'?: (boolean);
  'allowUnreleased'?: (boolean);
  'fullPrecisionSensitiveRecords'?: (boolean);
}

export interface ClientConnection__Output {
  'clientId': (string);
  'projId': (string);
  'allowConfidential': (boolean);
  'allowSensitive': (boolean);
  'allowUnreleased': (boolean);
  'fullPrecisionSensitiveRecords': (boolean);
}
