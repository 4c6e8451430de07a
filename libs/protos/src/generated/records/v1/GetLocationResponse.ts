// Original file: records/v1/records_service.proto

import type { AttributeDetails as _records_v1_AttributeDetails, AttributeDetails__Output as _records_v1_AttributeDetails__Output } from '../../records/v1/AttributeDetails.ts';
import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from '../../common/v1/JsonValues.ts';

export interface GetLocationResponse {
  'version'?: (string);
  'attributes'?: ({[key: string]: _records_v1_AttributeDetails});
  'values'?: (_common_v1_JsonValues | null);
}

export interface GetLocationResponse__Output {
  'version': (string);
  'attributes': ({[key: string]: _records_v1_AttributeDetails__Output});
  'values': (_common_v1_JsonValues__Output | null);
}
