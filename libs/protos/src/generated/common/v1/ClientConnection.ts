// Original file: common/v1/auth_context.proto

import type { Long } from '@grpc/proto-loader';

export interface ClientConnection {
  'clientId'?: (number | string | Long);
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
