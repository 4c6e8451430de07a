import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { JsonValues as _common_v1_JsonValues, JsonValues__Output as _common_v1_JsonValues__Output } from './common/v1/JsonValues.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  common: {
    v1: {
      JsonValues: MessageTypeDefinition<_common_v1_JsonValues, _common_v1_JsonValues__Output>
    }
  }
}

