import { clientOptions, callUnary, grpc, type CallSecret } from '@rex/grpc';
import {
  reportsV1,
  type AuthContext,
  type DescribeReportResponse__Output,
  type ExchangeRequest,
  type ExchangeResponse__Output,
  type ListFolderResponse__Output,
  type ReportAccess,
  type ReportsServiceClient,
  type RunReportChunk__Output,
  type RunReportRequest,
} from '@rex/protos';

const SERVICE = 'reports.v1.ReportsService';

/** The gateway's client of the reports service; every call carries a deadline. */
export function createReportsClient(address: string, secret: CallSecret, deadlineMs: number, runDeadlineMs: number) {
  const client = new reportsV1.ReportsService(address, grpc.credentials.createInsecure(), clientOptions(secret)) as ReportsServiceClient;
  return {
    listFolder: (auth: AuthContext, path: string, access: ReportAccess) =>
      callUnary<object, ListFolderResponse__Output>(client, SERVICE, 'ListFolder', { auth, path, access }, deadlineMs),
    describeReport: (auth: AuthContext, path: string, access: ReportAccess) =>
      callUnary<object, DescribeReportResponse__Output>(client, SERVICE, 'DescribeReport', { auth, path, access }, deadlineMs),
    runReport: (request: RunReportRequest): grpc.ClientReadableStream<RunReportChunk__Output> =>
      client.RunReport(request, { deadline: Date.now() + runDeadlineMs }),
    listTaxonObservations: (request: ExchangeRequest) =>
      callUnary<ExchangeRequest, ExchangeResponse__Output>(client, SERVICE, 'ListTaxonObservations', request, deadlineMs),
    listAnnotations: (request: ExchangeRequest) => callUnary<ExchangeRequest, ExchangeResponse__Output>(client, SERVICE, 'ListAnnotations', request, deadlineMs),
    close: () => client.close(),
  };
}

export type ReportsClient = ReturnType<typeof createReportsClient>;
