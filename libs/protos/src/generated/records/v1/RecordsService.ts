// Original file: records/v1/records_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddSurveyAttributeRequest as _records_v1_AddSurveyAttributeRequest, AddSurveyAttributeRequest__Output as _records_v1_AddSurveyAttributeRequest__Output } from '../../records/v1/AddSurveyAttributeRequest.ts';
import type { AddSurveyAttributeResponse as _records_v1_AddSurveyAttributeResponse, AddSurveyAttributeResponse__Output as _records_v1_AddSurveyAttributeResponse__Output } from '../../records/v1/AddSurveyAttributeResponse.ts';
import type { CreateLocationRequest as _records_v1_CreateLocationRequest, CreateLocationRequest__Output as _records_v1_CreateLocationRequest__Output } from '../../records/v1/CreateLocationRequest.ts';
import type { CreateLocationResponse as _records_v1_CreateLocationResponse, CreateLocationResponse__Output as _records_v1_CreateLocationResponse__Output } from '../../records/v1/CreateLocationResponse.ts';
import type { CreateMediumRequest as _records_v1_CreateMediumRequest, CreateMediumRequest__Output as _records_v1_CreateMediumRequest__Output } from '../../records/v1/CreateMediumRequest.ts';
import type { CreateMediumResponse as _records_v1_CreateMediumResponse, CreateMediumResponse__Output as _records_v1_CreateMediumResponse__Output } from '../../records/v1/CreateMediumResponse.ts';
import type { CreateOccurrenceRequest as _records_v1_CreateOccurrenceRequest, CreateOccurrenceRequest__Output as _records_v1_CreateOccurrenceRequest__Output } from '../../records/v1/CreateOccurrenceRequest.ts';
import type { CreateOccurrenceResponse as _records_v1_CreateOccurrenceResponse, CreateOccurrenceResponse__Output as _records_v1_CreateOccurrenceResponse__Output } from '../../records/v1/CreateOccurrenceResponse.ts';
import type { CreateOccurrencesRequest as _records_v1_CreateOccurrencesRequest, CreateOccurrencesRequest__Output as _records_v1_CreateOccurrencesRequest__Output } from '../../records/v1/CreateOccurrencesRequest.ts';
import type { CreateOccurrencesResponse as _records_v1_CreateOccurrencesResponse, CreateOccurrencesResponse__Output as _records_v1_CreateOccurrencesResponse__Output } from '../../records/v1/CreateOccurrencesResponse.ts';
import type { CreateSampleRequest as _records_v1_CreateSampleRequest, CreateSampleRequest__Output as _records_v1_CreateSampleRequest__Output } from '../../records/v1/CreateSampleRequest.ts';
import type { CreateSampleResponse as _records_v1_CreateSampleResponse, CreateSampleResponse__Output as _records_v1_CreateSampleResponse__Output } from '../../records/v1/CreateSampleResponse.ts';
import type { CreateSamplesRequest as _records_v1_CreateSamplesRequest, CreateSamplesRequest__Output as _records_v1_CreateSamplesRequest__Output } from '../../records/v1/CreateSamplesRequest.ts';
import type { CreateSamplesResponse as _records_v1_CreateSamplesResponse, CreateSamplesResponse__Output as _records_v1_CreateSamplesResponse__Output } from '../../records/v1/CreateSamplesResponse.ts';
import type { CreateSurveyRequest as _records_v1_CreateSurveyRequest, CreateSurveyRequest__Output as _records_v1_CreateSurveyRequest__Output } from '../../records/v1/CreateSurveyRequest.ts';
import type { CreateSurveyResponse as _records_v1_CreateSurveyResponse, CreateSurveyResponse__Output as _records_v1_CreateSurveyResponse__Output } from '../../records/v1/CreateSurveyResponse.ts';
import type { DeleteLocationRequest as _records_v1_DeleteLocationRequest, DeleteLocationRequest__Output as _records_v1_DeleteLocationRequest__Output } from '../../records/v1/DeleteLocationRequest.ts';
import type { DeleteLocationResponse as _records_v1_DeleteLocationResponse, DeleteLocationResponse__Output as _records_v1_DeleteLocationResponse__Output } from '../../records/v1/DeleteLocationResponse.ts';
import type { DeleteMediumRequest as _records_v1_DeleteMediumRequest, DeleteMediumRequest__Output as _records_v1_DeleteMediumRequest__Output } from '../../records/v1/DeleteMediumRequest.ts';
import type { DeleteMediumResponse as _records_v1_DeleteMediumResponse, DeleteMediumResponse__Output as _records_v1_DeleteMediumResponse__Output } from '../../records/v1/DeleteMediumResponse.ts';
import type { DeleteOccurrenceRequest as _records_v1_DeleteOccurrenceRequest, DeleteOccurrenceRequest__Output as _records_v1_DeleteOccurrenceRequest__Output } from '../../records/v1/DeleteOccurrenceRequest.ts';
import type { DeleteOccurrenceResponse as _records_v1_DeleteOccurrenceResponse, DeleteOccurrenceResponse__Output as _records_v1_DeleteOccurrenceResponse__Output } from '../../records/v1/DeleteOccurrenceResponse.ts';
import type { DeleteSampleRequest as _records_v1_DeleteSampleRequest, DeleteSampleRequest__Output as _records_v1_DeleteSampleRequest__Output } from '../../records/v1/DeleteSampleRequest.ts';
import type { DeleteSampleResponse as _records_v1_DeleteSampleResponse, DeleteSampleResponse__Output as _records_v1_DeleteSampleResponse__Output } from '../../records/v1/DeleteSampleResponse.ts';
import type { GetLocationRequest as _records_v1_GetLocationRequest, GetLocationRequest__Output as _records_v1_GetLocationRequest__Output } from '../../records/v1/GetLocationRequest.ts';
import type { GetLocationResponse as _records_v1_GetLocationResponse, GetLocationResponse__Output as _records_v1_GetLocationResponse__Output } from '../../records/v1/GetLocationResponse.ts';
import type { GetMediumRequest as _records_v1_GetMediumRequest, GetMediumRequest__Output as _records_v1_GetMediumRequest__Output } from '../../records/v1/GetMediumRequest.ts';
import type { GetMediumResponse as _records_v1_GetMediumResponse, GetMediumResponse__Output as _records_v1_GetMediumResponse__Output } from '../../records/v1/GetMediumResponse.ts';
import type { GetOccurrenceRequest as _records_v1_GetOccurrenceRequest, GetOccurrenceRequest__Output as _records_v1_GetOccurrenceRequest__Output } from '../../records/v1/GetOccurrenceRequest.ts';
import type { GetOccurrenceResponse as _records_v1_GetOccurrenceResponse, GetOccurrenceResponse__Output as _records_v1_GetOccurrenceResponse__Output } from '../../records/v1/GetOccurrenceResponse.ts';
import type { GetSampleRequest as _records_v1_GetSampleRequest, GetSampleRequest__Output as _records_v1_GetSampleRequest__Output } from '../../records/v1/GetSampleRequest.ts';
import type { GetSampleResponse as _records_v1_GetSampleResponse, GetSampleResponse__Output as _records_v1_GetSampleResponse__Output } from '../../records/v1/GetSampleResponse.ts';
import type { GetSurveyRequest as _records_v1_GetSurveyRequest, GetSurveyRequest__Output as _records_v1_GetSurveyRequest__Output } from '../../records/v1/GetSurveyRequest.ts';
import type { GetSurveyResponse as _records_v1_GetSurveyResponse, GetSurveyResponse__Output as _records_v1_GetSurveyResponse__Output } from '../../records/v1/GetSurveyResponse.ts';
import type { ListAttributesRequest as _records_v1_ListAttributesRequest, ListAttributesRequest__Output as _records_v1_ListAttributesRequest__Output } from '../../records/v1/ListAttributesRequest.ts';
import type { ListAttributesResponse as _records_v1_ListAttributesResponse, ListAttributesResponse__Output as _records_v1_ListAttributesResponse__Output } from '../../records/v1/ListAttributesResponse.ts';
import type { ListLocationsRequest as _records_v1_ListLocationsRequest, ListLocationsRequest__Output as _records_v1_ListLocationsRequest__Output } from '../../records/v1/ListLocationsRequest.ts';
import type { ListLocationsResponse as _records_v1_ListLocationsResponse, ListLocationsResponse__Output as _records_v1_ListLocationsResponse__Output } from '../../records/v1/ListLocationsResponse.ts';
import type { ListMediaRequest as _records_v1_ListMediaRequest, ListMediaRequest__Output as _records_v1_ListMediaRequest__Output } from '../../records/v1/ListMediaRequest.ts';
import type { ListMediaResponse as _records_v1_ListMediaResponse, ListMediaResponse__Output as _records_v1_ListMediaResponse__Output } from '../../records/v1/ListMediaResponse.ts';
import type { ListOccurrencesRequest as _records_v1_ListOccurrencesRequest, ListOccurrencesRequest__Output as _records_v1_ListOccurrencesRequest__Output } from '../../records/v1/ListOccurrencesRequest.ts';
import type { ListOccurrencesResponse as _records_v1_ListOccurrencesResponse, ListOccurrencesResponse__Output as _records_v1_ListOccurrencesResponse__Output } from '../../records/v1/ListOccurrencesResponse.ts';
import type { ListSamplesRequest as _records_v1_ListSamplesRequest, ListSamplesRequest__Output as _records_v1_ListSamplesRequest__Output } from '../../records/v1/ListSamplesRequest.ts';
import type { ListSamplesResponse as _records_v1_ListSamplesResponse, ListSamplesResponse__Output as _records_v1_ListSamplesResponse__Output } from '../../records/v1/ListSamplesResponse.ts';
import type { ListSurveysRequest as _records_v1_ListSurveysRequest, ListSurveysRequest__Output as _records_v1_ListSurveysRequest__Output } from '../../records/v1/ListSurveysRequest.ts';
import type { ListSurveysResponse as _records_v1_ListSurveysResponse, ListSurveysResponse__Output as _records_v1_ListSurveysResponse__Output } from '../../records/v1/ListSurveysResponse.ts';
import type { RemoveSurveyAttributeRequest as _records_v1_RemoveSurveyAttributeRequest, RemoveSurveyAttributeRequest__Output as _records_v1_RemoveSurveyAttributeRequest__Output } from '../../records/v1/RemoveSurveyAttributeRequest.ts';
import type { RemoveSurveyAttributeResponse as _records_v1_RemoveSurveyAttributeResponse, RemoveSurveyAttributeResponse__Output as _records_v1_RemoveSurveyAttributeResponse__Output } from '../../records/v1/RemoveSurveyAttributeResponse.ts';
import type { UpdateLocationRequest as _records_v1_UpdateLocationRequest, UpdateLocationRequest__Output as _records_v1_UpdateLocationRequest__Output } from '../../records/v1/UpdateLocationRequest.ts';
import type { UpdateLocationResponse as _records_v1_UpdateLocationResponse, UpdateLocationResponse__Output as _records_v1_UpdateLocationResponse__Output } from '../../records/v1/UpdateLocationResponse.ts';
import type { UpdateMediumRequest as _records_v1_UpdateMediumRequest, UpdateMediumRequest__Output as _records_v1_UpdateMediumRequest__Output } from '../../records/v1/UpdateMediumRequest.ts';
import type { UpdateMediumResponse as _records_v1_UpdateMediumResponse, UpdateMediumResponse__Output as _records_v1_UpdateMediumResponse__Output } from '../../records/v1/UpdateMediumResponse.ts';
import type { UpdateOccurrenceRequest as _records_v1_UpdateOccurrenceRequest, UpdateOccurrenceRequest__Output as _records_v1_UpdateOccurrenceRequest__Output } from '../../records/v1/UpdateOccurrenceRequest.ts';
import type { UpdateOccurrenceResponse as _records_v1_UpdateOccurrenceResponse, UpdateOccurrenceResponse__Output as _records_v1_UpdateOccurrenceResponse__Output } from '../../records/v1/UpdateOccurrenceResponse.ts';
import type { UpdateSampleRequest as _records_v1_UpdateSampleRequest, UpdateSampleRequest__Output as _records_v1_UpdateSampleRequest__Output } from '../../records/v1/UpdateSampleRequest.ts';
import type { UpdateSampleResponse as _records_v1_UpdateSampleResponse, UpdateSampleResponse__Output as _records_v1_UpdateSampleResponse__Output } from '../../records/v1/UpdateSampleResponse.ts';
import type { UpdateSurveyAttributeRequest as _records_v1_UpdateSurveyAttributeRequest, UpdateSurveyAttributeRequest__Output as _records_v1_UpdateSurveyAttributeRequest__Output } from '../../records/v1/UpdateSurveyAttributeRequest.ts';
import type { UpdateSurveyAttributeResponse as _records_v1_UpdateSurveyAttributeResponse, UpdateSurveyAttributeResponse__Output as _records_v1_UpdateSurveyAttributeResponse__Output } from '../../records/v1/UpdateSurveyAttributeResponse.ts';
import type { UpdateSurveyRequest as _records_v1_UpdateSurveyRequest, UpdateSurveyRequest__Output as _records_v1_UpdateSurveyRequest__Output } from '../../records/v1/UpdateSurveyRequest.ts';
import type { UpdateSurveyResponse as _records_v1_UpdateSurveyResponse, UpdateSurveyResponse__Output as _records_v1_UpdateSurveyResponse__Output } from '../../records/v1/UpdateSurveyResponse.ts';

export interface RecordsServiceClient extends grpc.Client {
  AddSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  AddSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  AddSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  AddSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  addSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  addSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  addSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  addSurveyAttribute(argument: _records_v1_AddSurveyAttributeRequest, callback: grpc.requestCallback<_records_v1_AddSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  
  CreateLocation(argument: _records_v1_CreateLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  CreateLocation(argument: _records_v1_CreateLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  CreateLocation(argument: _records_v1_CreateLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  CreateLocation(argument: _records_v1_CreateLocationRequest, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  createLocation(argument: _records_v1_CreateLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  createLocation(argument: _records_v1_CreateLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  createLocation(argument: _records_v1_CreateLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  createLocation(argument: _records_v1_CreateLocationRequest, callback: grpc.requestCallback<_records_v1_CreateLocationResponse__Output>): grpc.ClientUnaryCall;
  
  CreateMedium(argument: _records_v1_CreateMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  CreateMedium(argument: _records_v1_CreateMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  CreateMedium(argument: _records_v1_CreateMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  CreateMedium(argument: _records_v1_CreateMediumRequest, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  createMedium(argument: _records_v1_CreateMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  createMedium(argument: _records_v1_CreateMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  createMedium(argument: _records_v1_CreateMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  createMedium(argument: _records_v1_CreateMediumRequest, callback: grpc.requestCallback<_records_v1_CreateMediumResponse__Output>): grpc.ClientUnaryCall;
  
  CreateOccurrence(argument: _records_v1_CreateOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  CreateOccurrence(argument: _records_v1_CreateOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  CreateOccurrence(argument: _records_v1_CreateOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  CreateOccurrence(argument: _records_v1_CreateOccurrenceRequest, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  createOccurrence(argument: _records_v1_CreateOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  createOccurrence(argument: _records_v1_CreateOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  createOccurrence(argument: _records_v1_CreateOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  createOccurrence(argument: _records_v1_CreateOccurrenceRequest, callback: grpc.requestCallback<_records_v1_CreateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  
  CreateOccurrences(argument: _records_v1_CreateOccurrencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  CreateOccurrences(argument: _records_v1_CreateOccurrencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  CreateOccurrences(argument: _records_v1_CreateOccurrencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  CreateOccurrences(argument: _records_v1_CreateOccurrencesRequest, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  createOccurrences(argument: _records_v1_CreateOccurrencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  createOccurrences(argument: _records_v1_CreateOccurrencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  createOccurrences(argument: _records_v1_CreateOccurrencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  createOccurrences(argument: _records_v1_CreateOccurrencesRequest, callback: grpc.requestCallback<_records_v1_CreateOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  
  CreateSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  CreateSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  CreateSample(argument: _records_v1_CreateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  CreateSample(argument: _records_v1_CreateSampleRequest, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  
  CreateSamples(argument: _records_v1_CreateSamplesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  CreateSamples(argument: _records_v1_CreateSamplesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  CreateSamples(argument: _records_v1_CreateSamplesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  CreateSamples(argument: _records_v1_CreateSamplesRequest, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  createSamples(argument: _records_v1_CreateSamplesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  createSamples(argument: _records_v1_CreateSamplesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  createSamples(argument: _records_v1_CreateSamplesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  createSamples(argument: _records_v1_CreateSamplesRequest, callback: grpc.requestCallback<_records_v1_CreateSamplesResponse__Output>): grpc.ClientUnaryCall;
  
  CreateSurvey(argument: _records_v1_CreateSurveyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  CreateSurvey(argument: _records_v1_CreateSurveyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  CreateSurvey(argument: _records_v1_CreateSurveyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  CreateSurvey(argument: _records_v1_CreateSurveyRequest, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  createSurvey(argument: _records_v1_CreateSurveyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  createSurvey(argument: _records_v1_CreateSurveyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  createSurvey(argument: _records_v1_CreateSurveyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  createSurvey(argument: _records_v1_CreateSurveyRequest, callback: grpc.requestCallback<_records_v1_CreateSurveyResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteLocation(argument: _records_v1_DeleteLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  DeleteLocation(argument: _records_v1_DeleteLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  DeleteLocation(argument: _records_v1_DeleteLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  DeleteLocation(argument: _records_v1_DeleteLocationRequest, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  deleteLocation(argument: _records_v1_DeleteLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  deleteLocation(argument: _records_v1_DeleteLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  deleteLocation(argument: _records_v1_DeleteLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  deleteLocation(argument: _records_v1_DeleteLocationRequest, callback: grpc.requestCallback<_records_v1_DeleteLocationResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteMedium(argument: _records_v1_DeleteMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  DeleteMedium(argument: _records_v1_DeleteMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  DeleteMedium(argument: _records_v1_DeleteMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  DeleteMedium(argument: _records_v1_DeleteMediumRequest, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  deleteMedium(argument: _records_v1_DeleteMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  deleteMedium(argument: _records_v1_DeleteMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  deleteMedium(argument: _records_v1_DeleteMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  deleteMedium(argument: _records_v1_DeleteMediumRequest, callback: grpc.requestCallback<_records_v1_DeleteMediumResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  DeleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  DeleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  DeleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  deleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  deleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  deleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  deleteOccurrence(argument: _records_v1_DeleteOccurrenceRequest, callback: grpc.requestCallback<_records_v1_DeleteOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  DeleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  DeleteSample(argument: _records_v1_DeleteSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  DeleteSample(argument: _records_v1_DeleteSampleRequest, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  
  GetLocation(argument: _records_v1_GetLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  GetLocation(argument: _records_v1_GetLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  GetLocation(argument: _records_v1_GetLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  GetLocation(argument: _records_v1_GetLocationRequest, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  getLocation(argument: _records_v1_GetLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  getLocation(argument: _records_v1_GetLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  getLocation(argument: _records_v1_GetLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  getLocation(argument: _records_v1_GetLocationRequest, callback: grpc.requestCallback<_records_v1_GetLocationResponse__Output>): grpc.ClientUnaryCall;
  
  GetMedium(argument: _records_v1_GetMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  GetMedium(argument: _records_v1_GetMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  GetMedium(argument: _records_v1_GetMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  GetMedium(argument: _records_v1_GetMediumRequest, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  getMedium(argument: _records_v1_GetMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  getMedium(argument: _records_v1_GetMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  getMedium(argument: _records_v1_GetMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  getMedium(argument: _records_v1_GetMediumRequest, callback: grpc.requestCallback<_records_v1_GetMediumResponse__Output>): grpc.ClientUnaryCall;
  
  GetOccurrence(argument: _records_v1_GetOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  GetOccurrence(argument: _records_v1_GetOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  GetOccurrence(argument: _records_v1_GetOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  GetOccurrence(argument: _records_v1_GetOccurrenceRequest, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  getOccurrence(argument: _records_v1_GetOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  getOccurrence(argument: _records_v1_GetOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  getOccurrence(argument: _records_v1_GetOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  getOccurrence(argument: _records_v1_GetOccurrenceRequest, callback: grpc.requestCallback<_records_v1_GetOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  
  GetSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  GetSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  GetSample(argument: _records_v1_GetSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  GetSample(argument: _records_v1_GetSampleRequest, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  
  GetSurvey(argument: _records_v1_GetSurveyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  GetSurvey(argument: _records_v1_GetSurveyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  GetSurvey(argument: _records_v1_GetSurveyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  GetSurvey(argument: _records_v1_GetSurveyRequest, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  getSurvey(argument: _records_v1_GetSurveyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  getSurvey(argument: _records_v1_GetSurveyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  getSurvey(argument: _records_v1_GetSurveyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  getSurvey(argument: _records_v1_GetSurveyRequest, callback: grpc.requestCallback<_records_v1_GetSurveyResponse__Output>): grpc.ClientUnaryCall;
  
  ListAttributes(argument: _records_v1_ListAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  ListAttributes(argument: _records_v1_ListAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  ListAttributes(argument: _records_v1_ListAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  ListAttributes(argument: _records_v1_ListAttributesRequest, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  listAttributes(argument: _records_v1_ListAttributesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  listAttributes(argument: _records_v1_ListAttributesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  listAttributes(argument: _records_v1_ListAttributesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  listAttributes(argument: _records_v1_ListAttributesRequest, callback: grpc.requestCallback<_records_v1_ListAttributesResponse__Output>): grpc.ClientUnaryCall;
  
  ListLocations(argument: _records_v1_ListLocationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  ListLocations(argument: _records_v1_ListLocationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  ListLocations(argument: _records_v1_ListLocationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  ListLocations(argument: _records_v1_ListLocationsRequest, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  listLocations(argument: _records_v1_ListLocationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  listLocations(argument: _records_v1_ListLocationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  listLocations(argument: _records_v1_ListLocationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  listLocations(argument: _records_v1_ListLocationsRequest, callback: grpc.requestCallback<_records_v1_ListLocationsResponse__Output>): grpc.ClientUnaryCall;
  
  ListMedia(argument: _records_v1_ListMediaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  ListMedia(argument: _records_v1_ListMediaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  ListMedia(argument: _records_v1_ListMediaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  ListMedia(argument: _records_v1_ListMediaRequest, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  listMedia(argument: _records_v1_ListMediaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  listMedia(argument: _records_v1_ListMediaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  listMedia(argument: _records_v1_ListMediaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  listMedia(argument: _records_v1_ListMediaRequest, callback: grpc.requestCallback<_records_v1_ListMediaResponse__Output>): grpc.ClientUnaryCall;
  
  ListOccurrences(argument: _records_v1_ListOccurrencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  ListOccurrences(argument: _records_v1_ListOccurrencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  ListOccurrences(argument: _records_v1_ListOccurrencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  ListOccurrences(argument: _records_v1_ListOccurrencesRequest, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  listOccurrences(argument: _records_v1_ListOccurrencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  listOccurrences(argument: _records_v1_ListOccurrencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  listOccurrences(argument: _records_v1_ListOccurrencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  listOccurrences(argument: _records_v1_ListOccurrencesRequest, callback: grpc.requestCallback<_records_v1_ListOccurrencesResponse__Output>): grpc.ClientUnaryCall;
  
  ListSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  ListSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  ListSamples(argument: _records_v1_ListSamplesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  ListSamples(argument: _records_v1_ListSamplesRequest, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  
  ListSurveys(argument: _records_v1_ListSurveysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  ListSurveys(argument: _records_v1_ListSurveysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  ListSurveys(argument: _records_v1_ListSurveysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  ListSurveys(argument: _records_v1_ListSurveysRequest, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  listSurveys(argument: _records_v1_ListSurveysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  listSurveys(argument: _records_v1_ListSurveysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  listSurveys(argument: _records_v1_ListSurveysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  listSurveys(argument: _records_v1_ListSurveysRequest, callback: grpc.requestCallback<_records_v1_ListSurveysResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  RemoveSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  RemoveSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  RemoveSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  removeSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  removeSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  removeSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  removeSurveyAttribute(argument: _records_v1_RemoveSurveyAttributeRequest, callback: grpc.requestCallback<_records_v1_RemoveSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateLocation(argument: _records_v1_UpdateLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  UpdateLocation(argument: _records_v1_UpdateLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  UpdateLocation(argument: _records_v1_UpdateLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  UpdateLocation(argument: _records_v1_UpdateLocationRequest, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  updateLocation(argument: _records_v1_UpdateLocationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  updateLocation(argument: _records_v1_UpdateLocationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  updateLocation(argument: _records_v1_UpdateLocationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  updateLocation(argument: _records_v1_UpdateLocationRequest, callback: grpc.requestCallback<_records_v1_UpdateLocationResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateMedium(argument: _records_v1_UpdateMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  UpdateMedium(argument: _records_v1_UpdateMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  UpdateMedium(argument: _records_v1_UpdateMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  UpdateMedium(argument: _records_v1_UpdateMediumRequest, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  updateMedium(argument: _records_v1_UpdateMediumRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  updateMedium(argument: _records_v1_UpdateMediumRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  updateMedium(argument: _records_v1_UpdateMediumRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  updateMedium(argument: _records_v1_UpdateMediumRequest, callback: grpc.requestCallback<_records_v1_UpdateMediumResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  UpdateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  UpdateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  UpdateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  updateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  updateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  updateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  updateOccurrence(argument: _records_v1_UpdateOccurrenceRequest, callback: grpc.requestCallback<_records_v1_UpdateOccurrenceResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  UpdateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  UpdateSample(argument: _records_v1_UpdateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  UpdateSample(argument: _records_v1_UpdateSampleRequest, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSurvey(argument: _records_v1_UpdateSurveyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  UpdateSurvey(argument: _records_v1_UpdateSurveyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  UpdateSurvey(argument: _records_v1_UpdateSurveyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  UpdateSurvey(argument: _records_v1_UpdateSurveyRequest, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  updateSurvey(argument: _records_v1_UpdateSurveyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  updateSurvey(argument: _records_v1_UpdateSurveyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  updateSurvey(argument: _records_v1_UpdateSurveyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  updateSurvey(argument: _records_v1_UpdateSurveyRequest, callback: grpc.requestCallback<_records_v1_UpdateSurveyResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  UpdateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  UpdateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  UpdateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  updateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  updateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  updateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  updateSurveyAttribute(argument: _records_v1_UpdateSurveyAttributeRequest, callback: grpc.requestCallback<_records_v1_UpdateSurveyAttributeResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RecordsServiceHandlers extends grpc.UntypedServiceImplementation {
  AddSurveyAttribute: grpc.handleUnaryCall<_records_v1_AddSurveyAttributeRequest__Output, _records_v1_AddSurveyAttributeResponse>;
  
  CreateLocation: grpc.handleUnaryCall<_records_v1_CreateLocationRequest__Output, _records_v1_CreateLocationResponse>;
  
  CreateMedium: grpc.handleUnaryCall<_records_v1_CreateMediumRequest__Output, _records_v1_CreateMediumResponse>;
  
  CreateOccurrence: grpc.handleUnaryCall<_records_v1_CreateOccurrenceRequest__Output, _records_v1_CreateOccurrenceResponse>;
  
  CreateOccurrences: grpc.handleUnaryCall<_records_v1_CreateOccurrencesRequest__Output, _records_v1_CreateOccurrencesResponse>;
  
  CreateSample: grpc.handleUnaryCall<_records_v1_CreateSampleRequest__Output, _records_v1_CreateSampleResponse>;
  
  CreateSamples: grpc.handleUnaryCall<_records_v1_CreateSamplesRequest__Output, _records_v1_CreateSamplesResponse>;
  
  CreateSurvey: grpc.handleUnaryCall<_records_v1_CreateSurveyRequest__Output, _records_v1_CreateSurveyResponse>;
  
  DeleteLocation: grpc.handleUnaryCall<_records_v1_DeleteLocationRequest__Output, _records_v1_DeleteLocationResponse>;
  
  DeleteMedium: grpc.handleUnaryCall<_records_v1_DeleteMediumRequest__Output, _records_v1_DeleteMediumResponse>;
  
  DeleteOccurrence: grpc.handleUnaryCall<_records_v1_DeleteOccurrenceRequest__Output, _records_v1_DeleteOccurrenceResponse>;
  
  DeleteSample: grpc.handleUnaryCall<_records_v1_DeleteSampleRequest__Output, _records_v1_DeleteSampleResponse>;
  
  GetLocation: grpc.handleUnaryCall<_records_v1_GetLocationRequest__Output, _records_v1_GetLocationResponse>;
  
  GetMedium: grpc.handleUnaryCall<_records_v1_GetMediumRequest__Output, _records_v1_GetMediumResponse>;
  
  GetOccurrence: grpc.handleUnaryCall<_records_v1_GetOccurrenceRequest__Output, _records_v1_GetOccurrenceResponse>;
  
  GetSample: grpc.handleUnaryCall<_records_v1_GetSampleRequest__Output, _records_v1_GetSampleResponse>;
  
  GetSurvey: grpc.handleUnaryCall<_records_v1_GetSurveyRequest__Output, _records_v1_GetSurveyResponse>;
  
  ListAttributes: grpc.handleUnaryCall<_records_v1_ListAttributesRequest__Output, _records_v1_ListAttributesResponse>;
  
  ListLocations: grpc.handleUnaryCall<_records_v1_ListLocationsRequest__Output, _records_v1_ListLocationsResponse>;
  
  ListMedia: grpc.handleUnaryCall<_records_v1_ListMediaRequest__Output, _records_v1_ListMediaResponse>;
  
  ListOccurrences: grpc.handleUnaryCall<_records_v1_ListOccurrencesRequest__Output, _records_v1_ListOccurrencesResponse>;
  
  ListSamples: grpc.handleUnaryCall<_records_v1_ListSamplesRequest__Output, _records_v1_ListSamplesResponse>;
  
  ListSurveys: grpc.handleUnaryCall<_records_v1_ListSurveysRequest__Output, _records_v1_ListSurveysResponse>;
  
  RemoveSurveyAttribute: grpc.handleUnaryCall<_records_v1_RemoveSurveyAttributeRequest__Output, _records_v1_RemoveSurveyAttributeResponse>;
  
  UpdateLocation: grpc.handleUnaryCall<_records_v1_UpdateLocationRequest__Output, _records_v1_UpdateLocationResponse>;
  
  UpdateMedium: grpc.handleUnaryCall<_records_v1_UpdateMediumRequest__Output, _records_v1_UpdateMediumResponse>;
  
  UpdateOccurrence: grpc.handleUnaryCall<_records_v1_UpdateOccurrenceRequest__Output, _records_v1_UpdateOccurrenceResponse>;
  
  UpdateSample: grpc.handleUnaryCall<_records_v1_UpdateSampleRequest__Output, _records_v1_UpdateSampleResponse>;
  
  UpdateSurvey: grpc.handleUnaryCall<_records_v1_UpdateSurveyRequest__Output, _records_v1_UpdateSurveyResponse>;
  
  UpdateSurveyAttribute: grpc.handleUnaryCall<_records_v1_UpdateSurveyAttributeRequest__Output, _records_v1_UpdateSurveyAttributeResponse>;
  
}

export interface RecordsServiceDefinition extends grpc.ServiceDefinition {
  AddSurveyAttribute: MethodDefinition<_records_v1_AddSurveyAttributeRequest, _records_v1_AddSurveyAttributeResponse, _records_v1_AddSurveyAttributeRequest__Output, _records_v1_AddSurveyAttributeResponse__Output>
  CreateLocation: MethodDefinition<_records_v1_CreateLocationRequest, _records_v1_CreateLocationResponse, _records_v1_CreateLocationRequest__Output, _records_v1_CreateLocationResponse__Output>
  CreateMedium: MethodDefinition<_records_v1_CreateMediumRequest, _records_v1_CreateMediumResponse, _records_v1_CreateMediumRequest__Output, _records_v1_CreateMediumResponse__Output>
  CreateOccurrence: MethodDefinition<_records_v1_CreateOccurrenceRequest, _records_v1_CreateOccurrenceResponse, _records_v1_CreateOccurrenceRequest__Output, _records_v1_CreateOccurrenceResponse__Output>
  CreateOccurrences: MethodDefinition<_records_v1_CreateOccurrencesRequest, _records_v1_CreateOccurrencesResponse, _records_v1_CreateOccurrencesRequest__Output, _records_v1_CreateOccurrencesResponse__Output>
  CreateSample: MethodDefinition<_records_v1_CreateSampleRequest, _records_v1_CreateSampleResponse, _records_v1_CreateSampleRequest__Output, _records_v1_CreateSampleResponse__Output>
  CreateSamples: MethodDefinition<_records_v1_CreateSamplesRequest, _records_v1_CreateSamplesResponse, _records_v1_CreateSamplesRequest__Output, _records_v1_CreateSamplesResponse__Output>
  CreateSurvey: MethodDefinition<_records_v1_CreateSurveyRequest, _records_v1_CreateSurveyResponse, _records_v1_CreateSurveyRequest__Output, _records_v1_CreateSurveyResponse__Output>
  DeleteLocation: MethodDefinition<_records_v1_DeleteLocationRequest, _records_v1_DeleteLocationResponse, _records_v1_DeleteLocationRequest__Output, _records_v1_DeleteLocationResponse__Output>
  DeleteMedium: MethodDefinition<_records_v1_DeleteMediumRequest, _records_v1_DeleteMediumResponse, _records_v1_DeleteMediumRequest__Output, _records_v1_DeleteMediumResponse__Output>
  DeleteOccurrence: MethodDefinition<_records_v1_DeleteOccurrenceRequest, _records_v1_DeleteOccurrenceResponse, _records_v1_DeleteOccurrenceRequest__Output, _records_v1_DeleteOccurrenceResponse__Output>
  DeleteSample: MethodDefinition<_records_v1_DeleteSampleRequest, _records_v1_DeleteSampleResponse, _records_v1_DeleteSampleRequest__Output, _records_v1_DeleteSampleResponse__Output>
  GetLocation: MethodDefinition<_records_v1_GetLocationRequest, _records_v1_GetLocationResponse, _records_v1_GetLocationRequest__Output, _records_v1_GetLocationResponse__Output>
  GetMedium: MethodDefinition<_records_v1_GetMediumRequest, _records_v1_GetMediumResponse, _records_v1_GetMediumRequest__Output, _records_v1_GetMediumResponse__Output>
  GetOccurrence: MethodDefinition<_records_v1_GetOccurrenceRequest, _records_v1_GetOccurrenceResponse, _records_v1_GetOccurrenceRequest__Output, _records_v1_GetOccurrenceResponse__Output>
  GetSample: MethodDefinition<_records_v1_GetSampleRequest, _records_v1_GetSampleResponse, _records_v1_GetSampleRequest__Output, _records_v1_GetSampleResponse__Output>
  GetSurvey: MethodDefinition<_records_v1_GetSurveyRequest, _records_v1_GetSurveyResponse, _records_v1_GetSurveyRequest__Output, _records_v1_GetSurveyResponse__Output>
  ListAttributes: MethodDefinition<_records_v1_ListAttributesRequest, _records_v1_ListAttributesResponse, _records_v1_ListAttributesRequest__Output, _records_v1_ListAttributesResponse__Output>
  ListLocations: MethodDefinition<_records_v1_ListLocationsRequest, _records_v1_ListLocationsResponse, _records_v1_ListLocationsRequest__Output, _records_v1_ListLocationsResponse__Output>
  ListMedia: MethodDefinition<_records_v1_ListMediaRequest, _records_v1_ListMediaResponse, _records_v1_ListMediaRequest__Output, _records_v1_ListMediaResponse__Output>
  ListOccurrences: MethodDefinition<_records_v1_ListOccurrencesRequest, _records_v1_ListOccurrencesResponse, _records_v1_ListOccurrencesRequest__Output, _records_v1_ListOccurrencesResponse__Output>
  ListSamples: MethodDefinition<_records_v1_ListSamplesRequest, _records_v1_ListSamplesResponse, _records_v1_ListSamplesRequest__Output, _records_v1_ListSamplesResponse__Output>
  ListSurveys: MethodDefinition<_records_v1_ListSurveysRequest, _records_v1_ListSurveysResponse, _records_v1_ListSurveysRequest__Output, _records_v1_ListSurveysResponse__Output>
  RemoveSurveyAttribute: MethodDefinition<_records_v1_RemoveSurveyAttributeRequest, _records_v1_RemoveSurveyAttributeResponse, _records_v1_RemoveSurveyAttributeRequest__Output, _records_v1_RemoveSurveyAttributeResponse__Output>
  UpdateLocation: MethodDefinition<_records_v1_UpdateLocationRequest, _records_v1_UpdateLocationResponse, _records_v1_UpdateLocationRequest__Output, _records_v1_UpdateLocationResponse__Output>
  UpdateMedium: MethodDefinition<_records_v1_UpdateMediumRequest, _records_v1_UpdateMediumResponse, _records_v1_UpdateMediumRequest__Output, _records_v1_UpdateMediumResponse__Output>
  UpdateOccurrence: MethodDefinition<_records_v1_UpdateOccurrenceRequest, _records_v1_UpdateOccurrenceResponse, _records_v1_UpdateOccurrenceRequest__Output, _records_v1_UpdateOccurrenceResponse__Output>
  UpdateSample: MethodDefinition<_records_v1_UpdateSampleRequest, _records_v1_UpdateSampleResponse, _records_v1_UpdateSampleRequest__Output, _records_v1_UpdateSampleResponse__Output>
  UpdateSurvey: MethodDefinition<_records_v1_UpdateSurveyRequest, _records_v1_UpdateSurveyResponse, _records_v1_UpdateSurveyRequest__Output, _records_v1_UpdateSurveyResponse__Output>
  UpdateSurveyAttribute: MethodDefinition<_records_v1_UpdateSurveyAttributeRequest, _records_v1_UpdateSurveyAttributeResponse, _records_v1_UpdateSurveyAttributeRequest__Output, _records_v1_UpdateSurveyAttributeResponse__Output>
}
