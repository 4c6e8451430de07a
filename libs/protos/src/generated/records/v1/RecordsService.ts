// Original file: records/v1/records_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateSampleRequest as _records_v1_CreateSampleRequest, CreateSampleRequest__Output as _records_v1_CreateSampleRequest__Output } from '../../records/v1/CreateSampleRequest.ts';
import type { CreateSampleResponse as _records_v1_CreateSampleResponse, CreateSampleResponse__Output as _records_v1_CreateSampleResponse__Output } from '../../records/v1/CreateSampleResponse.ts';
import type { DeleteSampleRequest as _records_v1_DeleteSampleRequest, DeleteSampleRequest__Output as _records_v1_DeleteSampleRequest__Output } from '../../records/v1/DeleteSampleRequest.ts';
import type { DeleteSampleResponse as _records_v1_DeleteSampleResponse, DeleteSampleResponse__Output as _records_v1_DeleteSampleResponse__Output } from '../../records/v1/DeleteSampleResponse.ts';
import type { GetSampleRequest as _records_v1_GetSampleRequest, GetSampleRequest__Output as _records_v1_GetSampleRequest__Output } from '../../records/v1/GetSampleRequest.ts';
import type { GetSampleResponse as _records_v1_GetSampleResponse, GetSampleResponse__Output as _records_v1_GetSampleResponse__Output } from '../../records/v1/GetSampleResponse.ts';
import type { ListSamplesRequest as _records_v1_ListSamplesRequest, ListSamplesRequest__Output as _records_v1_ListSamplesRequest__Output } from '../../records/v1/ListSamplesRequest.ts';
import type { ListSamplesResponse as _records_v1_ListSamplesResponse, ListSamplesResponse__Output as _records_v1_ListSamplesResponse__Output } from '../../records/v1/ListSamplesResponse.ts';
import type { UpdateSampleRequest as _records_v1_UpdateSampleRequest, UpdateSampleRequest__Output as _records_v1_UpdateSampleRequest__Output } from '../../records/v1/UpdateSampleRequest.ts';
import type { UpdateSampleResponse as _records_v1_UpdateSampleResponse, UpdateSampleResponse__Output as _records_v1_UpdateSampleResponse__Output } from '../../records/v1/UpdateSampleResponse.ts';

export interface RecordsServiceClient extends grpc.Client {
  CreateSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  CreateSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  CreateSample(argument: _records_v1_CreateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  CreateSample(argument: _records_v1_CreateSampleRequest, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  createSample(argument: _records_v1_CreateSampleRequest, callback: grpc.requestCallback<_records_v1_CreateSampleResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  DeleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  DeleteSample(argument: _records_v1_DeleteSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  DeleteSample(argument: _records_v1_DeleteSampleRequest, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  deleteSample(argument: _records_v1_DeleteSampleRequest, callback: grpc.requestCallback<_records_v1_DeleteSampleResponse__Output>): grpc.ClientUnaryCall;
  
  GetSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  GetSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  GetSample(argument: _records_v1_GetSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  GetSample(argument: _records_v1_GetSampleRequest, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  getSample(argument: _records_v1_GetSampleRequest, callback: grpc.requestCallback<_records_v1_GetSampleResponse__Output>): grpc.ClientUnaryCall;
  
  ListSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  ListSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  ListSamples(argument: _records_v1_ListSamplesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  ListSamples(argument: _records_v1_ListSamplesRequest, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  listSamples(argument: _records_v1_ListSamplesRequest, callback: grpc.requestCallback<_records_v1_ListSamplesResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  UpdateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  UpdateSample(argument: _records_v1_UpdateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  UpdateSample(argument: _records_v1_UpdateSampleRequest, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  updateSample(argument: _records_v1_UpdateSampleRequest, callback: grpc.requestCallback<_records_v1_UpdateSampleResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RecordsServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateSample: grpc.handleUnaryCall<_records_v1_CreateSampleRequest__Output, _records_v1_CreateSampleResponse>;
  
  DeleteSample: grpc.handleUnaryCall<_records_v1_DeleteSampleRequest__Output, _records_v1_DeleteSampleResponse>;
  
  GetSample: grpc.handleUnaryCall<_records_v1_GetSampleRequest__Output, _records_v1_GetSampleResponse>;
  
  ListSamples: grpc.handleUnaryCall<_records_v1_ListSamplesRequest__Output, _records_v1_ListSamplesResponse>;
  
  UpdateSample: grpc.handleUnaryCall<_records_v1_UpdateSampleRequest__Output, _records_v1_UpdateSampleResponse>;
  
}

export interface RecordsServiceDefinition extends grpc.ServiceDefinition {
  CreateSample: MethodDefinition<_records_v1_CreateSampleRequest, _records_v1_CreateSampleResponse, _records_v1_CreateSampleRequest__Output, _records_v1_CreateSampleResponse__Output>
  DeleteSample: MethodDefinition<_records_v1_DeleteSampleRequest, _records_v1_DeleteSampleResponse, _records_v1_DeleteSampleRequest__Output, _records_v1_DeleteSampleResponse__Output>
  GetSample: MethodDefinition<_records_v1_GetSampleRequest, _records_v1_GetSampleResponse, _records_v1_GetSampleRequest__Output, _records_v1_GetSampleResponse__Output>
  ListSamples: MethodDefinition<_records_v1_ListSamplesRequest, _records_v1_ListSamplesResponse, _records_v1_ListSamplesRequest__Output, _records_v1_ListSamplesResponse__Output>
  UpdateSample: MethodDefinition<_records_v1_UpdateSampleRequest, _records_v1_UpdateSampleResponse, _records_v1_UpdateSampleRequest__Output, _records_v1_UpdateSampleResponse__Output>
}
