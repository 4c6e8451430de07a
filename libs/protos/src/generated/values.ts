import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { FieldValue as _common_v1_FieldValue, FieldValue__Output as _common_v1_FieldValue__Output } from './common/v1/FieldValue.ts';
import type { TextList as _common_v1_TextList, TextList__Output as _common_v1_TextList__Output } from './common/v1/TextList.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  common: {
    v1: {
      FieldValue: MessageTypeDefinition<_common_v1_FieldValue, _common_v1_FieldValue__Output>
      TextList: MessageTypeDefinition<_common_v1_TextList, _common_v1_TextList__Output>
    }
  }
}

