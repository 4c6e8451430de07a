import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from './common/v1/AuthContext.ts';
import type { ClientConnection as _common_v1_ClientConnection, ClientConnection__Output as _common_v1_ClientConnection__Output } from './common/v1/ClientConnection.ts';
import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from './common/v1/JsonValues.ts';
import type { AddSurveyAttributeRequest as _records_v1_AddSurveyAttributeRequest, AddSurveyAttributeRequest__Output as _records_v1_AddSurveyAttributeRequest__Output } from './records/v1/AddSurveyAttributeRequest.ts';
import type { AddSurveyAttributeResponse as _records_v1_AddSurveyAttributeResponse, AddSurveyAttributeResponse__Output as _records_v1_AddSurveyAttributeResponse__Output } from './records/v1/AddSurveyAttributeResponse.ts';
import type { AttributeDetails as _records_v1_AttributeDetails, AttributeDetails__Output as _records_v1_AttributeDetails__Output } from './records/v1/AttributeDetails.ts';
import type { CreateLocationRequest as _records_v1_CreateLocationRequest, CreateLocationRequest__Output as _records_v1_CreateLocationRequest__Output } from './records/v1/CreateLocationRequest.ts';
import type { CreateLocationResponse as _records_v1_CreateLocationResponse, CreateLocationResponse__Output as _records_v1_CreateLocationResponse__Output } from './records/v1/CreateLocationResponse.ts';
import type { CreateMediumRequest as _records_v1_CreateMediumRequest, CreateMediumRequest__Output as _records_v1_CreateMediumRequest__Output } from './records/v1/CreateMediumRequest.ts';
import type { CreateMediumResponse as _records_v1_CreateMediumResponse, CreateMediumResponse__Output as _records_v1_CreateMediumResponse__Output } from './records/v1/CreateMediumResponse.ts';
import type { CreateOccurrenceRequest as _records_v1_CreateOccurrenceRequest, CreateOccurrenceRequest__Output as _records_v1_CreateOccurrenceRequest__Output } from './records/v1/CreateOccurrenceRequest.ts';
import type { CreateOccurrenceResponse as _records_v1_CreateOccurrenceResponse, CreateOccurrenceResponse__Output as _records_v1_CreateOccurrenceResponse__Output } from './records/v1/CreateOccurrenceResponse.ts';
import type { CreateOccurrencesRequest as _records_v1_CreateOccurrencesRequest, CreateOccurrencesRequest__Output as _records_v1_CreateOccurrencesRequest__Output } from './records/v1/CreateOccurrencesRequest.ts';
import type { CreateOccurrencesResponse as _records_v1_CreateOccurrencesResponse, CreateOccurrencesResponse__Output as _records_v1_CreateOccurrencesResponse__Output } from './records/v1/CreateOccurrencesResponse.ts';
import type { CreateSampleRequest as _records_v1_CreateSampleRequest, CreateSampleRequest__Output as _records_v1_CreateSampleRequest__Output } from './records/v1/CreateSampleRequest.ts';
import type { CreateSampleResponse as _records_v1_CreateSampleResponse, CreateSampleResponse__Output as _records_v1_CreateSampleResponse__Output } from './records/v1/CreateSampleResponse.ts';
import type { CreateSamplesRequest as _records_v1_CreateSamplesRequest, CreateSamplesRequest__Output as _records_v1_CreateSamplesRequest__Output } from './records/v1/CreateSamplesRequest.ts';
import type { CreateSamplesResponse as _records_v1_CreateSamplesResponse, CreateSamplesResponse__Output as _records_v1_CreateSamplesResponse__Output } from './records/v1/CreateSamplesResponse.ts';
import type { CreateSurveyRequest as _records_v1_CreateSurveyRequest, CreateSurveyRequest__Output as _records_v1_CreateSurveyRequest__Output } from './records/v1/CreateSurveyRequest.ts';
import type { CreateSurveyResponse as _records_v1_CreateSurveyResponse, CreateSurveyResponse__Output as _records_v1_CreateSurveyResponse__Output } from './records/v1/CreateSurveyResponse.ts';
import type { DeleteLocationRequest as _records_v1_DeleteLocationRequest, DeleteLocationRequest__Output as _records_v1_DeleteLocationRequest__Output } from './records/v1/DeleteLocationRequest.ts';
import type { DeleteLocationResponse as _records_v1_DeleteLocationResponse, DeleteLocationResponse__Output as _records_v1_DeleteLocationResponse__Output } from './records/v1/DeleteLocationResponse.ts';
import type { DeleteMediumRequest as _records_v1_DeleteMediumRequest, DeleteMediumRequest__Output as _records_v1_DeleteMediumRequest__Output } from './records/v1/DeleteMediumRequest.ts';
import type { DeleteMediumResponse as _records_v1_DeleteMediumResponse, DeleteMediumResponse__Output as _records_v1_DeleteMediumResponse__Output } from './records/v1/DeleteMediumResponse.ts';
import type { DeleteOccurrenceRequest as _records_v1_DeleteOccurrenceRequest, DeleteOccurrenceRequest__Output as _records_v1_DeleteOccurrenceRequest__Output } from './records/v1/DeleteOccurrenceRequest.ts';
import type { DeleteOccurrenceResponse as _records_v1_DeleteOccurrenceResponse, DeleteOccurrenceResponse__Output as _records_v1_DeleteOccurrenceResponse__Output } from './records/v1/DeleteOccurrenceResponse.ts';
import type { DeleteSampleRequest as _records_v1_DeleteSampleRequest, DeleteSampleRequest__Output as _records_v1_DeleteSampleRequest__Output } from './records/v1/DeleteSampleRequest.ts';
import type { DeleteSampleResponse as _records_v1_DeleteSampleResponse, DeleteSampleResponse__Output as _records_v1_DeleteSampleResponse__Output } from './records/v1/DeleteSampleResponse.ts';
import type { GetLocationRequest as _records_v1_GetLocationRequest, GetLocationRequest__Output as _records_v1_GetLocationRequest__Output } from './records/v1/GetLocationRequest.ts';
import type { GetLocationResponse as _records_v1_GetLocationResponse, GetLocationResponse__Output as _records_v1_GetLocationResponse__Output } from './records/v1/GetLocationResponse.ts';
import type { GetMediumRequest as _records_v1_GetMediumRequest, GetMediumRequest__Output as _records_v1_GetMediumRequest__Output } from './records/v1/GetMediumRequest.ts';
import type { GetMediumResponse as _records_v1_GetMediumResponse, GetMediumResponse__Output as _records_v1_GetMediumResponse__Output } from './records/v1/GetMediumResponse.ts';
import type { GetOccurrenceRequest as _records_v1_GetOccurrenceRequest, GetOccurrenceRequest__Output as _records_v1_GetOccurrenceRequest__Output } from './records/v1/GetOccurrenceRequest.ts';
import type { GetOccurrenceResponse as _records_v1_GetOccurrenceResponse, GetOccurrenceResponse__Output as _records_v1_GetOccurrenceResponse__Output } from './records/v1/GetOccurrenceResponse.ts';
import type { GetSampleRequest as _records_v1_GetSampleRequest, GetSampleRequest__Output as _records_v1_GetSampleRequest__Output } from './records/v1/GetSampleRequest.ts';
import type { GetSampleResponse as _records_v1_GetSampleResponse, GetSampleResponse__Output as _records_v1_GetSampleResponse__Output } from './records/v1/GetSampleResponse.ts';
import type { GetSurveyRequest as _records_v1_GetSurveyRequest, GetSurveyRequest__Output as _records_v1_GetSurveyRequest__Output } from './records/v1/GetSurveyRequest.ts';
import type { GetSurveyResponse as _records_v1_GetSurveyResponse, GetSurveyResponse__Output as _records_v1_GetSurveyResponse__Output } from './records/v1/GetSurveyResponse.ts';
import type { ListAttributesRequest as _records_v1_ListAttributesRequest, ListAttributesRequest__Output as _records_v1_ListAttributesRequest__Output } from './records/v1/ListAttributesRequest.ts';
import type { ListAttributesResponse as _records_v1_ListAttributesResponse, ListAttributesResponse__Output as _records_v1_ListAttributesResponse__Output } from './records/v1/ListAttributesResponse.ts';
import type { ListLocationsRequest as _records_v1_ListLocationsRequest, ListLocationsRequest__Output as _records_v1_ListLocationsRequest__Output } from './records/v1/ListLocationsRequest.ts';
import type { ListLocationsResponse as _records_v1_ListLocationsResponse, ListLocationsResponse__Output as _records_v1_ListLocationsResponse__Output } from './records/v1/ListLocationsResponse.ts';
import type { ListMediaRequest as _records_v1_ListMediaRequest, ListMediaRequest__Output as _records_v1_ListMediaRequest__Output } from './records/v1/ListMediaRequest.ts';
import type { ListMediaResponse as _records_v1_ListMediaResponse, ListMediaResponse__Output as _records_v1_ListMediaResponse__Output } from './records/v1/ListMediaResponse.ts';
import type { ListOccurrencesRequest as _records_v1_ListOccurrencesRequest, ListOccurrencesRequest__Output as _records_v1_ListOccurrencesRequest__Output } from './records/v1/ListOccurrencesRequest.ts';
import type { ListOccurrencesResponse as _records_v1_ListOccurrencesResponse, ListOccurrencesResponse__Output as _records_v1_ListOccurrencesResponse__Output } from './records/v1/ListOccurrencesResponse.ts';
import type { ListSamplesRequest as _records_v1_ListSamplesRequest, ListSamplesRequest__Output as _records_v1_ListSamplesRequest__Output } from './records/v1/ListSamplesRequest.ts';
import type { ListSamplesResponse as _records_v1_ListSamplesResponse, ListSamplesResponse__Output as _records_v1_ListSamplesResponse__Output } from './records/v1/ListSamplesResponse.ts';
import type { ListSurveysRequest as _records_v1_ListSurveysRequest, ListSurveysRequest__Output as _records_v1_ListSurveysRequest__Output } from './records/v1/ListSurveysRequest.ts';
import type { ListSurveysResponse as _records_v1_ListSurveysResponse, ListSurveysResponse__Output as _records_v1_ListSurveysResponse__Output } from './records/v1/ListSurveysResponse.ts';
import type { RecordValues as _records_v1_RecordValues, RecordValues__Output as _records_v1_RecordValues__Output } from './records/v1/RecordValues.ts';
import type { RecordsServiceClient as _records_v1_RecordsServiceClient, RecordsServiceDefinition as _records_v1_RecordsServiceDefinition } from './records/v1/RecordsService.ts';
import type { RemoveSurveyAttributeRequest as _records_v1_RemoveSurveyAttributeRequest, RemoveSurveyAttributeRequest__Output as _records_v1_RemoveSurveyAttributeRequest__Output } from './records/v1/RemoveSurveyAttributeRequest.ts';
import type { RemoveSurveyAttributeResponse as _records_v1_RemoveSurveyAttributeResponse, RemoveSurveyAttributeResponse__Output as _records_v1_RemoveSurveyAttributeResponse__Output } from './records/v1/RemoveSurveyAttributeResponse.ts';
import type { SavedRecord as _records_v1_SavedRecord, SavedRecord__Output as _records_v1_SavedRecord__Output } from './records/v1/SavedRecord.ts';
import type { Submission as _records_v1_Submission, Submission__Output as _records_v1_Submission__Output } from './records/v1/Submission.ts';
import type { UpdateLocationRequest as _records_v1_UpdateLocationRequest, UpdateLocationRequest__Output as _records_v1_UpdateLocationRequest__Output } from './records/v1/UpdateLocationRequest.ts';
import type { UpdateLocationResponse as _records_v1_UpdateLocationResponse, UpdateLocationResponse__Output as _records_v1_UpdateLocationResponse__Output } from './records/v1/UpdateLocationResponse.ts';
import type { UpdateMediumRequest as _records_v1_UpdateMediumRequest, UpdateMediumRequest__Output as _records_v1_UpdateMediumRequest__Output } from './records/v1/UpdateMediumRequest.ts';
import type { UpdateMediumResponse as _records_v1_UpdateMediumResponse, UpdateMediumResponse__Output as _records_v1_UpdateMediumResponse__Output } from './records/v1/UpdateMediumResponse.ts';
import type { UpdateOccurrenceRequest as _records_v1_UpdateOccurrenceRequest, UpdateOccurrenceRequest__Output as _records_v1_UpdateOccurrenceRequest__Output } from './records/v1/UpdateOccurrenceRequest.ts';
import type { UpdateOccurrenceResponse as _records_v1_UpdateOccurrenceResponse, UpdateOccurrenceResponse__Output as _records_v1_UpdateOccurrenceResponse__Output } from './records/v1/UpdateOccurrenceResponse.ts';
import type { UpdateSampleRequest as _records_v1_UpdateSampleRequest, UpdateSampleRequest__Output as _records_v1_UpdateSampleRequest__Output } from './records/v1/UpdateSampleRequest.ts';
import type { UpdateSampleResponse as _records_v1_UpdateSampleResponse, UpdateSampleResponse__Output as _records_v1_UpdateSampleResponse__Output } from './records/v1/UpdateSampleResponse.ts';
import type { UpdateSurveyAttributeRequest as _records_v1_UpdateSurveyAttributeRequest, UpdateSurveyAttributeRequest__Output as _records_v1_UpdateSurveyAttributeRequest__Output } from './records/v1/UpdateSurveyAttributeRequest.ts';
import type { UpdateSurveyAttributeResponse as _records_v1_UpdateSurveyAttributeResponse, UpdateSurveyAttributeResponse__Output as _records_v1_UpdateSurveyAttributeResponse__Output } from './records/v1/UpdateSurveyAttributeResponse.ts';
import type { UpdateSurveyRequest as _records_v1_UpdateSurveyRequest, UpdateSurveyRequest__Output as _records_v1_UpdateSurveyRequest__Output } from './records/v1/UpdateSurveyRequest.ts';
import type { UpdateSurveyResponse as _records_v1_UpdateSurveyResponse, UpdateSurveyResponse__Output as _records_v1_UpdateSurveyResponse__Output } from './records/v1/UpdateSurveyResponse.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  common: {
    v1: {
      AuthContext: MessageTypeDefinition<_common_v1_AuthContext, _common_v1_AuthContext__Output>
      ClientConnection: MessageTypeDefinition<_common_v1_ClientConnection, _common_v1_ClientConnection__Output>
      Entity: EnumTypeDefinition
      JsonValues: MessageTypeDefinition<_common_v1_JsonValues, _common_v1_JsonValues__Output>
      Scope: EnumTypeDefinition
    }
  }
  records: {
    v1: {
      AddSurveyAttributeRequest: MessageTypeDefinition<_records_v1_AddSurveyAttributeRequest, _records_v1_AddSurveyAttributeRequest__Output>
      AddSurveyAttributeResponse: MessageTypeDefinition<_records_v1_AddSurveyAttributeResponse, _records_v1_AddSurveyAttributeResponse__Output>
      AttributeDetails: MessageTypeDefinition<_records_v1_AttributeDetails, _records_v1_AttributeDetails__Output>
      CreateLocationRequest: MessageTypeDefinition<_records_v1_CreateLocationRequest, _records_v1_CreateLocationRequest__Output>
      CreateLocationResponse: MessageTypeDefinition<_records_v1_CreateLocationResponse, _records_v1_CreateLocationResponse__Output>
      CreateMediumRequest: MessageTypeDefinition<_records_v1_CreateMediumRequest, _records_v1_CreateMediumRequest__Output>
      CreateMediumResponse: MessageTypeDefinition<_records_v1_CreateMediumResponse, _records_v1_CreateMediumResponse__Output>
      CreateOccurrenceRequest: MessageTypeDefinition<_records_v1_CreateOccurrenceRequest, _records_v1_CreateOccurrenceRequest__Output>
      CreateOccurrenceResponse: MessageTypeDefinition<_records_v1_CreateOccurrenceResponse, _records_v1_CreateOccurrenceResponse__Output>
      CreateOccurrencesRequest: MessageTypeDefinition<_records_v1_CreateOccurrencesRequest, _records_v1_CreateOccurrencesRequest__Output>
      CreateOccurrencesResponse: MessageTypeDefinition<_records_v1_CreateOccurrencesResponse, _records_v1_CreateOccurrencesResponse__Output>
      CreateSampleRequest: MessageTypeDefinition<_records_v1_CreateSampleRequest, _records_v1_CreateSampleRequest__Output>
      CreateSampleResponse: MessageTypeDefinition<_records_v1_CreateSampleResponse, _records_v1_CreateSampleResponse__Output>
      CreateSamplesRequest: MessageTypeDefinition<_records_v1_CreateSamplesRequest, _records_v1_CreateSamplesRequest__Output>
      CreateSamplesResponse: MessageTypeDefinition<_records_v1_CreateSamplesResponse, _records_v1_CreateSamplesResponse__Output>
      CreateSurveyRequest: MessageTypeDefinition<_records_v1_CreateSurveyRequest, _records_v1_CreateSurveyRequest__Output>
      CreateSurveyResponse: MessageTypeDefinition<_records_v1_CreateSurveyResponse, _records_v1_CreateSurveyResponse__Output>
      DeleteLocationRequest: MessageTypeDefinition<_records_v1_DeleteLocationRequest, _records_v1_DeleteLocationRequest__Output>
      DeleteLocationResponse: MessageTypeDefinition<_records_v1_DeleteLocationResponse, _records_v1_DeleteLocationResponse__Output>
      DeleteMediumRequest: MessageTypeDefinition<_records_v1_DeleteMediumRequest, _records_v1_DeleteMediumRequest__Output>
      DeleteMediumResponse: MessageTypeDefinition<_records_v1_DeleteMediumResponse, _records_v1_DeleteMediumResponse__Output>
      DeleteOccurrenceRequest: MessageTypeDefinition<_records_v1_DeleteOccurrenceRequest, _records_v1_DeleteOccurrenceRequest__Output>
      DeleteOccurrenceResponse: MessageTypeDefinition<_records_v1_DeleteOccurrenceResponse, _records_v1_DeleteOccurrenceResponse__Output>
      DeleteSampleRequest: MessageTypeDefinition<_records_v1_DeleteSampleRequest, _records_v1_DeleteSampleRequest__Output>
      DeleteSampleResponse: MessageTypeDefinition<_records_v1_DeleteSampleResponse, _records_v1_DeleteSampleResponse__Output>
      GetLocationRequest: MessageTypeDefinition<_records_v1_GetLocationRequest, _records_v1_GetLocationRequest__Output>
      GetLocationResponse: MessageTypeDefinition<_records_v1_GetLocationResponse, _records_v1_GetLocationResponse__Output>
      GetMediumRequest: MessageTypeDefinition<_records_v1_GetMediumRequest, _records_v1_GetMediumRequest__Output>
      GetMediumResponse: MessageTypeDefinition<_records_v1_GetMediumResponse, _records_v1_GetMediumResponse__Output>
      GetOccurrenceRequest: MessageTypeDefinition<_records_v1_GetOccurrenceRequest, _records_v1_GetOccurrenceRequest__Output>
      GetOccurrenceResponse: MessageTypeDefinition<_records_v1_GetOccurrenceResponse, _records_v1_GetOccurrenceResponse__Output>
      GetSampleRequest: MessageTypeDefinition<_records_v1_GetSampleRequest, _records_v1_GetSampleRequest__Output>
      GetSampleResponse: MessageTypeDefinition<_records_v1_GetSampleResponse, _records_v1_GetSampleResponse__Output>
      GetSurveyRequest: MessageTypeDefinition<_records_v1_GetSurveyRequest, _records_v1_GetSurveyRequest__Output>
      GetSurveyResponse: MessageTypeDefinition<_records_v1_GetSurveyResponse, _records_v1_GetSurveyResponse__Output>
      ListAttributesRequest: MessageTypeDefinition<_records_v1_ListAttributesRequest, _records_v1_ListAttributesRequest__Output>
      ListAttributesResponse: MessageTypeDefinition<_records_v1_ListAttributesResponse, _records_v1_ListAttributesResponse__Output>
      ListLocationsRequest: MessageTypeDefinition<_records_v1_ListLocationsRequest, _records_v1_ListLocationsRequest__Output>
      ListLocationsResponse: MessageTypeDefinition<_records_v1_ListLocationsResponse, _records_v1_ListLocationsResponse__Output>
      ListMediaRequest: MessageTypeDefinition<_records_v1_ListMediaRequest, _records_v1_ListMediaRequest__Output>
      ListMediaResponse: MessageTypeDefinition<_records_v1_ListMediaResponse, _records_v1_ListMediaResponse__Output>
      ListOccurrencesRequest: MessageTypeDefinition<_records_v1_ListOccurrencesRequest, _records_v1_ListOccurrencesRequest__Output>
      ListOccurrencesResponse: MessageTypeDefinition<_records_v1_ListOccurrencesResponse, _records_v1_ListOccurrencesResponse__Output>
      ListSamplesRequest: MessageTypeDefinition<_records_v1_ListSamplesRequest, _records_v1_ListSamplesRequest__Output>
      ListSamplesResponse: MessageTypeDefinition<_records_v1_ListSamplesResponse, _records_v1_ListSamplesResponse__Output>
      ListSurveysRequest: MessageTypeDefinition<_records_v1_ListSurveysRequest, _records_v1_ListSurveysRequest__Output>
      ListSurveysResponse: MessageTypeDefinition<_records_v1_ListSurveysResponse, _records_v1_ListSurveysResponse__Output>
      MediaParent: EnumTypeDefinition
      RecordValues: MessageTypeDefinition<_records_v1_RecordValues, _records_v1_RecordValues__Output>
      RecordsService: SubtypeConstructor<typeof grpc.Client, _records_v1_RecordsServiceClient> & { service: _records_v1_RecordsServiceDefinition }
      RemoveSurveyAttributeRequest: MessageTypeDefinition<_records_v1_RemoveSurveyAttributeRequest, _records_v1_RemoveSurveyAttributeRequest__Output>
      RemoveSurveyAttributeResponse: MessageTypeDefinition<_records_v1_RemoveSurveyAttributeResponse, _records_v1_RemoveSurveyAttributeResponse__Output>
      SavedRecord: MessageTypeDefinition<_records_v1_SavedRecord, _records_v1_SavedRecord__Output>
      Submission: MessageTypeDefinition<_records_v1_Submission, _records_v1_Submission__Output>
      UpdateLocationRequest: MessageTypeDefinition<_records_v1_UpdateLocationRequest, _records_v1_UpdateLocationRequest__Output>
      UpdateLocationResponse: MessageTypeDefinition<_records_v1_UpdateLocationResponse, _records_v1_UpdateLocationResponse__Output>
      UpdateMediumRequest: MessageTypeDefinition<_records_v1_UpdateMediumRequest, _records_v1_UpdateMediumRequest__Output>
      UpdateMediumResponse: MessageTypeDefinition<_records_v1_UpdateMediumResponse, _records_v1_UpdateMediumResponse__Output>
      UpdateOccurrenceRequest: MessageTypeDefinition<_records_v1_UpdateOccurrenceRequest, _records_v1_UpdateOccurrenceRequest__Output>
      UpdateOccurrenceResponse: MessageTypeDefinition<_records_v1_UpdateOccurrenceResponse, _records_v1_UpdateOccurrenceResponse__Output>
      UpdateSampleRequest: MessageTypeDefinition<_records_v1_UpdateSampleRequest, _records_v1_UpdateSampleRequest__Output>
      UpdateSampleResponse: MessageTypeDefinition<_records_v1_UpdateSampleResponse, _records_v1_UpdateSampleResponse__Output>
      UpdateSurveyAttributeRequest: MessageTypeDefinition<_records_v1_UpdateSurveyAttributeRequest, _records_v1_UpdateSurveyAttributeRequest__Output>
      UpdateSurveyAttributeResponse: MessageTypeDefinition<_records_v1_UpdateSurveyAttributeResponse, _records_v1_UpdateSurveyAttributeResponse__Output>
      UpdateSurveyRequest: MessageTypeDefinition<_records_v1_UpdateSurveyRequest, _records_v1_UpdateSurveyRequest__Output>
      UpdateSurveyResponse: MessageTypeDefinition<_records_v1_UpdateSurveyResponse, _records_v1_UpdateSurveyResponse__Output>
    }
  }
}

