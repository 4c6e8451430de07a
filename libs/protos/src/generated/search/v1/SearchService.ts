// Original file: search/v1/search_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ForwardChunk as _search_v1_ForwardChunk, ForwardChunk__Output as _search_v1_ForwardChunk__Output } from '../../search/v1/ForwardChunk.ts';
import type { ForwardRequest as _search_v1_ForwardRequest, ForwardRequest__Output as _search_v1_ForwardRequest__Output } from '../../search/v1/ForwardRequest.ts';

export interface SearchServiceClient extends grpc.Client {
  Forward(argument: _search_v1_ForwardRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_search_v1_ForwardChunk__Output>;
  Forward(argument: _search_v1_ForwardRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_search_v1_ForwardChunk__Output>;
  forward(argument: _search_v1_ForwardRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_search_v1_ForwardChunk__Output>;
  forward(argument: _search_v1_ForwardRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_search_v1_ForwardChunk__Output>;
  
}

export interface SearchServiceHandlers extends grpc.UntypedServiceImplementation {
  Forward: grpc.handleServerStreamingCall<_search_v1_ForwardRequest__Output, _search_v1_ForwardChunk>;
  
}

export interface SearchServiceDefinition extends grpc.ServiceDefinition {
  Forward: MethodDefinition<_search_v1_ForwardRequest, _search_v1_ForwardChunk, _search_v1_ForwardRequest__Output, _search_v1_ForwardChunk__Output>
}
