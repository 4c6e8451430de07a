// Original file: reports/v1/reports_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DescribeReportRequest as _reports_v1_DescribeReportRequest, DescribeReportRequest__Output as _reports_v1_DescribeReportRequest__Output } from '../../reports/v1/DescribeReportRequest.ts';
import type { DescribeReportResponse as _reports_v1_DescribeReportResponse, DescribeReportResponse__Output as _reports_v1_DescribeReportResponse__Output } from '../../reports/v1/DescribeReportResponse.ts';
import type { ExchangeRequest as _reports_v1_ExchangeRequest, ExchangeRequest__Output as _reports_v1_ExchangeRequest__Output } from '../../reports/v1/ExchangeRequest.ts';
import type { ExchangeResponse as _reports_v1_ExchangeResponse, ExchangeResponse__Output as _reports_v1_ExchangeResponse__Output } from '../../reports/v1/ExchangeResponse.ts';
import type { ListChangesRequest as _reports_v1_ListChangesRequest, ListChangesRequest__Output as _reports_v1_ListChangesRequest__Output } from '../../reports/v1/ListChangesRequest.ts';
import type { ListChangesResponse as _reports_v1_ListChangesResponse, ListChangesResponse__Output as _reports_v1_ListChangesResponse__Output } from '../../reports/v1/ListChangesResponse.ts';
import type { ListFolderRequest as _reports_v1_ListFolderRequest, ListFolderRequest__Output as _reports_v1_ListFolderRequest__Output } from '../../reports/v1/ListFolderRequest.ts';
import type { ListFolderResponse as _reports_v1_ListFolderResponse, ListFolderResponse__Output as _reports_v1_ListFolderResponse__Output } from '../../reports/v1/ListFolderResponse.ts';
import type { RunReportChunk as _reports_v1_RunReportChunk, RunReportChunk__Output as _reports_v1_RunReportChunk__Output } from '../../reports/v1/RunReportChunk.ts';
import type { RunReportRequest as _reports_v1_RunReportRequest, RunReportRequest__Output as _reports_v1_RunReportRequest__Output } from '../../reports/v1/RunReportRequest.ts';

export interface ReportsServiceClient extends grpc.Client {
  DescribeReport(argument: _reports_v1_DescribeReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  DescribeReport(argument: _reports_v1_DescribeReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  DescribeReport(argument: _reports_v1_DescribeReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  DescribeReport(argument: _reports_v1_DescribeReportRequest, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  describeReport(argument: _reports_v1_DescribeReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  describeReport(argument: _reports_v1_DescribeReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  describeReport(argument: _reports_v1_DescribeReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  describeReport(argument: _reports_v1_DescribeReportRequest, callback: grpc.requestCallback<_reports_v1_DescribeReportResponse__Output>): grpc.ClientUnaryCall;
  
  ListAnnotations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  ListAnnotations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  ListAnnotations(argument: _reports_v1_ExchangeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  ListAnnotations(argument: _reports_v1_ExchangeRequest, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listAnnotations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listAnnotations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listAnnotations(argument: _reports_v1_ExchangeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listAnnotations(argument: _reports_v1_ExchangeRequest, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  
  ListChanges(argument: _reports_v1_ListChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  ListChanges(argument: _reports_v1_ListChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  ListChanges(argument: _reports_v1_ListChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  ListChanges(argument: _reports_v1_ListChangesRequest, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  listChanges(argument: _reports_v1_ListChangesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  listChanges(argument: _reports_v1_ListChangesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  listChanges(argument: _reports_v1_ListChangesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  listChanges(argument: _reports_v1_ListChangesRequest, callback: grpc.requestCallback<_reports_v1_ListChangesResponse__Output>): grpc.ClientUnaryCall;
  
  ListFolder(argument: _reports_v1_ListFolderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  ListFolder(argument: _reports_v1_ListFolderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  ListFolder(argument: _reports_v1_ListFolderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  ListFolder(argument: _reports_v1_ListFolderRequest, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  listFolder(argument: _reports_v1_ListFolderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  listFolder(argument: _reports_v1_ListFolderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  listFolder(argument: _reports_v1_ListFolderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  listFolder(argument: _reports_v1_ListFolderRequest, callback: grpc.requestCallback<_reports_v1_ListFolderResponse__Output>): grpc.ClientUnaryCall;
  
  ListTaxonObservations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  ListTaxonObservations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  ListTaxonObservations(argument: _reports_v1_ExchangeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  ListTaxonObservations(argument: _reports_v1_ExchangeRequest, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listTaxonObservations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listTaxonObservations(argument: _reports_v1_ExchangeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listTaxonObservations(argument: _reports_v1_ExchangeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  listTaxonObservations(argument: _reports_v1_ExchangeRequest, callback: grpc.requestCallback<_reports_v1_ExchangeResponse__Output>): grpc.ClientUnaryCall;
  
  RunReport(argument: _reports_v1_RunReportRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_reports_v1_RunReportChunk__Output>;
  RunReport(argument: _reports_v1_RunReportRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_reports_v1_RunReportChunk__Output>;
  runReport(argument: _reports_v1_RunReportRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_reports_v1_RunReportChunk__Output>;
  runReport(argument: _reports_v1_RunReportRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_reports_v1_RunReportChunk__Output>;
  
}

export interface ReportsServiceHandlers extends grpc.UntypedServiceImplementation {
  DescribeReport: grpc.handleUnaryCall<_reports_v1_DescribeReportRequest__Output, _reports_v1_DescribeReportResponse>;
  
  ListAnnotations: grpc.handleUnaryCall<_reports_v1_ExchangeRequest__Output, _reports_v1_ExchangeResponse>;
  
  ListChanges: grpc.handleUnaryCall<_reports_v1_ListChangesRequest__Output, _reports_v1_ListChangesResponse>;
  
  ListFolder: grpc.handleUnaryCall<_reports_v1_ListFolderRequest__Output, _reports_v1_ListFolderResponse>;
  
  ListTaxonObservations: grpc.handleUnaryCall<_reports_v1_ExchangeRequest__Output, _reports_v1_ExchangeResponse>;
  
  RunReport: grpc.handleServerStreamingCall<_reports_v1_RunReportRequest__Output, _reports_v1_RunReportChunk>;
  
}

export interface ReportsServiceDefinition extends grpc.ServiceDefinition {
  DescribeReport: MethodDefinition<_reports_v1_DescribeReportRequest, _reports_v1_DescribeReportResponse, _reports_v1_DescribeReportRequest__Output, _reports_v1_DescribeReportResponse__Output>
  ListAnnotations: MethodDefinition<_reports_v1_ExchangeRequest, _reports_v1_ExchangeResponse, _reports_v1_ExchangeRequest__Output, _reports_v1_ExchangeResponse__Output>
  ListChanges: MethodDefinition<_reports_v1_ListChangesRequest, _reports_v1_ListChangesResponse, _reports_v1_ListChangesRequest__Output, _reports_v1_ListChangesResponse__Output>
  ListFolder: MethodDefinition<_reports_v1_ListFolderRequest, _reports_v1_ListFolderResponse, _reports_v1_ListFolderRequest__Output, _reports_v1_ListFolderResponse__Output>
  ListTaxonObservations: MethodDefinition<_reports_v1_ExchangeRequest, _reports_v1_ExchangeResponse, _reports_v1_ExchangeRequest__Output, _reports_v1_ExchangeResponse__Output>
  RunReport: MethodDefinition<_reports_v1_RunReportRequest, _reports_v1_RunReportChunk, _reports_v1_RunReportRequest__Output, _reports_v1_RunReportChunk__Output>
}
