import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { LOADER_OPTIONS, PROTO_FILES } from './options.ts';
import type { ProtoGrpcType as RecordsProto } from './generated/records_service.ts';
import type { ProtoGrpcType as SearchProto } from './generated/search_service.ts';
import type { ProtoGrpcType as ReportsProto } from './generated/reports_service.ts';

export { LOADER_OPTIONS, PROTO_FILES, PROTOS_DIR } from './options.ts';

const definition = protoLoader.loadSync(PROTO_FILES, { ...LOADER_OPTIONS, includeDirs: [...LOADER_OPTIONS.includeDirs] });
const loaded = grpc.loadPackageDefinition(definition) as unknown as RecordsProto & SearchProto & ReportsProto;

export const recordsV1 = loaded.records.v1;
export const searchV1 = loaded.search.v1;
export const reportsV1 = loaded.reports.v1;

export type { AuthContext } from './generated/common/v1/AuthContext.ts';
export type { AuthContext__Output } from './generated/common/v1/AuthContext.ts';
export type { FieldValue, FieldValue__Output } from './generated/common/v1/FieldValue.ts';
export type { Entity } from './generated/common/v1/Entity.ts';
export type { Scope } from './generated/common/v1/Scope.ts';
export type { RecordsServiceClient, RecordsServiceHandlers } from './generated/records/v1/RecordsService.ts';
export type { Submission, Submission__Output } from './generated/records/v1/Submission.ts';
export type { SavedRecord, SavedRecord__Output } from './generated/records/v1/SavedRecord.ts';
export type { CreateSampleRequest__Output } from './generated/records/v1/CreateSampleRequest.ts';
export type { CreateSampleResponse, CreateSampleResponse__Output } from './generated/records/v1/CreateSampleResponse.ts';
export type { GetSampleRequest__Output } from './generated/records/v1/GetSampleRequest.ts';
export type { GetSampleResponse, GetSampleResponse__Output } from './generated/records/v1/GetSampleResponse.ts';
export type { ListSamplesRequest__Output } from './generated/records/v1/ListSamplesRequest.ts';
export type { ListSamplesResponse, ListSamplesResponse__Output } from './generated/records/v1/ListSamplesResponse.ts';
export type { UpdateSampleRequest__Output } from './generated/records/v1/UpdateSampleRequest.ts';
export type { UpdateSampleResponse, UpdateSampleResponse__Output } from './generated/records/v1/UpdateSampleResponse.ts';
export type { DeleteSampleRequest__Output } from './generated/records/v1/DeleteSampleRequest.ts';
export type { DeleteSampleResponse } from './generated/records/v1/DeleteSampleResponse.ts';
export type { SearchServiceClient, SearchServiceHandlers } from './generated/search/v1/SearchService.ts';
export type { ForwardRequest, ForwardRequest__Output } from './generated/search/v1/ForwardRequest.ts';
export type { ForwardChunk, ForwardChunk__Output } from './generated/search/v1/ForwardChunk.ts';
export type { SearchOptions } from './generated/search/v1/SearchOptions.ts';
export type { ReportsServiceClient, ReportsServiceHandlers } from './generated/reports/v1/ReportsService.ts';
export type { ReportAccess, ReportAccess__Output } from './generated/reports/v1/ReportAccess.ts';
export type { ListFolderRequest__Output } from './generated/reports/v1/ListFolderRequest.ts';
export type { ListFolderResponse, ListFolderResponse__Output } from './generated/reports/v1/ListFolderResponse.ts';
export type { FolderEntry, FolderEntry__Output } from './generated/reports/v1/FolderEntry.ts';
export type { DescribeReportRequest__Output } from './generated/reports/v1/DescribeReportRequest.ts';
export type { DescribeReportResponse, DescribeReportResponse__Output } from './generated/reports/v1/DescribeReportResponse.ts';
export type { RunReportRequest, RunReportRequest__Output } from './generated/reports/v1/RunReportRequest.ts';
export type { RunReportChunk, RunReportChunk__Output } from './generated/reports/v1/RunReportChunk.ts';
export type { ExchangeRequest, ExchangeRequest__Output } from './generated/reports/v1/ExchangeRequest.ts';
export type { ExchangeResponse, ExchangeResponse__Output } from './generated/reports/v1/ExchangeResponse.ts';
