import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from './common/v1/AuthContext.ts';
import type { ClientConnection as _common_v1_ClientConnection, ClientConnection__Output as _common_v1_ClientConnection__Output } from './common/v1/ClientConnection.ts';
import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from './common/v1/JsonValues.ts';
import type { Change as _reports_v1_Change, Change__Output as _reports_v1_Change__Output } from './reports/v1/Change.ts';
import type { DescribeReportRequest as _reports_v1_DescribeReportRequest, DescribeReportRequest__Output as _reports_v1_DescribeReportRequest__Output } from './reports/v1/DescribeReportRequest.ts';
import type { DescribeReportResponse as _reports_v1_DescribeReportResponse, DescribeReportResponse__Output as _reports_v1_DescribeReportResponse__Output } from './reports/v1/DescribeReportResponse.ts';
import type { ExchangeItem as _reports_v1_ExchangeItem, ExchangeItem__Output as _reports_v1_ExchangeItem__Output } from './reports/v1/ExchangeItem.ts';
import type { ExchangeRequest as _reports_v1_ExchangeRequest, ExchangeRequest__Output as _reports_v1_ExchangeRequest__Output } from './reports/v1/ExchangeRequest.ts';
import type { ExchangeResponse as _reports_v1_ExchangeResponse, ExchangeResponse__Output as _reports_v1_ExchangeResponse__Output } from './reports/v1/ExchangeResponse.ts';
import type { FolderEntry as _reports_v1_FolderEntry, FolderEntry__Output as _reports_v1_FolderEntry__Output } from './reports/v1/FolderEntry.ts';
import type { ListChangesRequest as _reports_v1_ListChangesRequest, ListChangesRequest__Output as _reports_v1_ListChangesRequest__Output } from './reports/v1/ListChangesRequest.ts';
import type { ListChangesResponse as _reports_v1_ListChangesResponse, ListChangesResponse__Output as _reports_v1_ListChangesResponse__Output } from './reports/v1/ListChangesResponse.ts';
import type { ListFolderRequest as _reports_v1_ListFolderRequest, ListFolderRequest__Output as _reports_v1_ListFolderRequest__Output } from './reports/v1/ListFolderRequest.ts';
import type { ListFolderResponse as _reports_v1_ListFolderResponse, ListFolderResponse__Output as _reports_v1_ListFolderResponse__Output } from './reports/v1/ListFolderResponse.ts';
import type { ReportAccess as _reports_v1_ReportAccess, ReportAccess__Output as _reports_v1_ReportAccess__Output } from './reports/v1/ReportAccess.ts';
import type { ReportColumn as _reports_v1_ReportColumn, ReportColumn__Output as _reports_v1_ReportColumn__Output } from './reports/v1/ReportColumn.ts';
import type { ReportHead as _reports_v1_ReportHead, ReportHead__Output as _reports_v1_ReportHead__Output } from './reports/v1/ReportHead.ts';
import type { ReportParameter as _reports_v1_ReportParameter, ReportParameter__Output as _reports_v1_ReportParameter__Output } from './reports/v1/ReportParameter.ts';
import type { ReportsServiceClient as _reports_v1_ReportsServiceClient, ReportsServiceDefinition as _reports_v1_ReportsServiceDefinition } from './reports/v1/ReportsService.ts';
import type { RowBatch as _reports_v1_RowBatch, RowBatch__Output as _reports_v1_RowBatch__Output } from './reports/v1/RowBatch.ts';
import type { RunReportChunk as _reports_v1_RunReportChunk, RunReportChunk__Output as _reports_v1_RunReportChunk__Output } from './reports/v1/RunReportChunk.ts';
import type { RunReportRequest as _reports_v1_RunReportRequest, RunReportRequest__Output as _reports_v1_RunReportRequest__Output } from './reports/v1/RunReportRequest.ts';

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
  reports: {
    v1: {
      Change: MessageTypeDefinition<_reports_v1_Change, _reports_v1_Change__Output>
      DescribeReportRequest: MessageTypeDefinition<_reports_v1_DescribeReportRequest, _reports_v1_DescribeReportRequest__Output>
      DescribeReportResponse: MessageTypeDefinition<_reports_v1_DescribeReportResponse, _reports_v1_DescribeReportResponse__Output>
      EntryType: EnumTypeDefinition
      ExchangeItem: MessageTypeDefinition<_reports_v1_ExchangeItem, _reports_v1_ExchangeItem__Output>
      ExchangeRequest: MessageTypeDefinition<_reports_v1_ExchangeRequest, _reports_v1_ExchangeRequest__Output>
      ExchangeResponse: MessageTypeDefinition<_reports_v1_ExchangeResponse, _reports_v1_ExchangeResponse__Output>
      FolderEntry: MessageTypeDefinition<_reports_v1_FolderEntry, _reports_v1_FolderEntry__Output>
      ListChangesRequest: MessageTypeDefinition<_reports_v1_ListChangesRequest, _reports_v1_ListChangesRequest__Output>
      ListChangesResponse: MessageTypeDefinition<_reports_v1_ListChangesResponse, _reports_v1_ListChangesResponse__Output>
      ListFolderRequest: MessageTypeDefinition<_reports_v1_ListFolderRequest, _reports_v1_ListFolderRequest__Output>
      ListFolderResponse: MessageTypeDefinition<_reports_v1_ListFolderResponse, _reports_v1_ListFolderResponse__Output>
      ReportAccess: MessageTypeDefinition<_reports_v1_ReportAccess, _reports_v1_ReportAccess__Output>
      ReportColumn: MessageTypeDefinition<_reports_v1_ReportColumn, _reports_v1_ReportColumn__Output>
      ReportHead: MessageTypeDefinition<_reports_v1_ReportHead, _reports_v1_ReportHead__Output>
      ReportParameter: MessageTypeDefinition<_reports_v1_ReportParameter, _reports_v1_ReportParameter__Output>
      ReportsService: SubtypeConstructor<typeof grpc.Client, _reports_v1_ReportsServiceClient> & { service: _reports_v1_ReportsServiceDefinition }
      RowBatch: MessageTypeDefinition<_reports_v1_RowBatch, _reports_v1_RowBatch__Output>
      RowForm: EnumTypeDefinition
      RunReportChunk: MessageTypeDefinition<_reports_v1_RunReportChunk, _reports_v1_RunReportChunk__Output>
      RunReportRequest: MessageTypeDefinition<_reports_v1_RunReportRequest, _reports_v1_RunReportRequest__Output>
    }
  }
}

