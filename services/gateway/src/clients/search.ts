import { ServiceClient, type grpc, type CallSecret } from '@rex/grpc';
import { searchV1, type AuthContext, type ForwardChunk__Output, type SearchOptions, type SearchServiceClient } from '@rex/protos';

export type ForwardCall = {
  auth: AuthContext | undefined;
  endpoint: string;
  method: string;
  segments: string[];
  query: string;
  body: Buffer;
  options: SearchOptions;
};

/** The gateway's client of the search service: a server-streaming forward with a deadline. */
export function createSearchClient(address: string, secret: CallSecret, deadlineMs: number) {
  const client = new ServiceClient(searchV1.SearchService, address, secret);
  return {
    forward: (request: ForwardCall): grpc.ClientReadableStream<ForwardChunk__Output> => client.serverStream<ForwardChunk__Output>('Forward', request, deadlineMs),
    close: () => client.close(),
  };
}

export type SearchClient = ReturnType<typeof createSearchClient>;
