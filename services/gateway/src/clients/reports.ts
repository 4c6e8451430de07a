import { ServiceClient, type grpc, type CallSecret } from '@rex/grpc';
import {
  reportsV1,
  type AuthContext,
  type DescribeReportResponse__Output,
  type ExchangeRequest,
  type ExchangeResponse__Output,
  type ListFolderResponse__Output,
  type ListChangesRequest,
  type ListChangesResponse__Output,
  type ReportAccess,
  type ReportsServiceClient,
  type RunReportChunk__Output,
  type RunReportRequest,
} from '@rex/protos';

/** The gateway's client of the reports service; every call carries a deadline. */
export function createReportsClient(address: string, secret: CallSecret, deadlineMs: number, runDeadlineMs: number) {
  const client = new ServiceClient(reportsV1.ReportsService, address, secret);
  return {
    listFolder: (auth: AuthContext, path: string, access: ReportAccess) =>
      client.unary<ListFolderResponse__Output>('ListFolder', { auth, path, access }, deadlineMs),
    describeReport: (auth: AuthContext, path: string, access: ReportAccess) =>
      client.unary<DescribeReportResponse__Output>('DescribeReport', { auth, path, access }, deadlineMs),
    runReport: (request: RunReportRequest): grpc.ClientReadableStream<RunReportChunk__Output> =>
      client.serverStream<RunReportChunk__Output>('RunReport', request, runDeadlineMs),
    listTaxonObservations: (request: ExchangeRequest) =>
      client.unary<ExchangeResponse__Output>('ListTaxonObservations', request, deadlineMs),
    listAnnotations: (request: ExchangeRequest) => client.unary<ExchangeResponse__Output>('ListAnnotations', request, deadlineMs),
    listChanges: (request: ListChangesRequest, callDeadlineMs: number) => client.unary<ListChangesResponse__Output>('ListChanges', request, callDeadlineMs),
    close: () => client.close(),
  };
}

export type ReportsClient = ReturnType<typeof createReportsClient>;
