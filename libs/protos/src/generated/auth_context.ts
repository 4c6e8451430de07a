import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from './common/v1/AuthContext.ts';
import type { ClientConnection as _common_v1_ClientConnection, ClientConnection__Output as _common_v1_ClientConnection__Output } from './common/v1/ClientConnection.ts';

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
}

