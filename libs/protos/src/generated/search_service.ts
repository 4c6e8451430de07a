import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from './common/v1/AuthContext.ts';
import type { ClientConnection as _common_v1_ClientConnection, ClientConnection__Output as _common_v1_ClientConnection__Output } from './common/v1/ClientConnection.ts';
import type { ForwardChunk as _search_v1_ForwardChunk, ForwardChunk__Output as _search_v1_ForwardChunk__Output } from './search/v1/ForwardChunk.ts';
import type { ForwardRequest as _search_v1_ForwardRequest, ForwardRequest__Output as _search_v1_ForwardRequest__Output } from './search/v1/ForwardRequest.ts';
import type { ResponseHead as _search_v1_ResponseHead, ResponseHead__Output as _search_v1_ResponseHead__Output } from './search/v1/ResponseHead.ts';
import type { SearchOptions as _search_v1_SearchOptions, SearchOptions__Output as _search_v1_SearchOptions__Output } from './search/v1/SearchOptions.ts';
import type { SearchServiceClient as _search_v1_SearchServiceClient, SearchServiceDefinition as _search_v1_SearchServiceDefinition } from './search/v1/SearchService.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  common: {
    v1: {
      AuthContext: MessageTypeDefinition<_common_v1_AuthContext, _common_v1_AuthContext__Output>
      ClientConnection: MessageTypeDefinition<_common_v1_ClientConnection, _common_v1_ClientConnection__Output>
      Entity: EnumTypeDefinition
      Scope: EnumTypeDefinition
    }
  }
  search: {
    v1: {
      ForwardChunk: MessageTypeDefinition<_search_v1_ForwardChunk, _search_v1_ForwardChunk__Output>
      ForwardRequest: MessageTypeDefinition<_search_v1_ForwardRequest, _search_v1_ForwardRequest__Output>
      ResponseHead: MessageTypeDefinition<_search_v1_ResponseHead, _search_v1_ResponseHead__Output>
      SearchOptions: MessageTypeDefinition<_search_v1_SearchOptions, _search_v1_SearchOptions__Output>
      SearchService: SubtypeConstructor<typeof grpc.Client, _search_v1_SearchServiceClient> & { service: _search_v1_SearchServiceDefinition }
    }
  }
}

