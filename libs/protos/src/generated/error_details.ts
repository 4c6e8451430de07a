import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { BadRequest as _google_rpc_BadRequest, BadRequest__Output as _google_rpc_BadRequest__Output } from './google/rpc/BadRequest.ts';
import type { ErrorInfo as _google_rpc_ErrorInfo, ErrorInfo__Output as _google_rpc_ErrorInfo__Output } from './google/rpc/ErrorInfo.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    rpc: {
      BadRequest: MessageTypeDefinition<_google_rpc_BadRequest, _google_rpc_BadRequest__Output>
      ErrorInfo: MessageTypeDefinition<_google_rpc_ErrorInfo, _google_rpc_ErrorInfo__Output>
    }
  }
}

