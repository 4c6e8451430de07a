// Original file: records/v1/records_service.proto

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from '../../common/v1/FieldValue.ts';
import type { AttributeDetails as _records_v1_AttributeDetails, AttributeDetails__Output as _records_v1_AttributeDetails__Output } from '../../records/v1/AttributeDetails.ts';
import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from '../../records/v1/RecordValues.ts';

export interface GetOccurrenceResponse {
  'values'?: ({[key: string]: _common_v1_FieldValue});
  'version'?: (string);
  'attributes'?: ({[key: string]: _records_v1_AttributeDetails});
  'associations'?: (_records_v1_RecordValues)[];
}

export interface GetOccurrenceResponse__Output {
  'values': ({[key: string]: _common_v1_FieldValue__Output});
  'version': (string);
  'attributes': ({[key: string]: _records_v1_AttributeDetails__Output});
  'associations': (_records_v1_RecordValues__Output)[];
}
