import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthContext as _common_v1_AuthContext, AuthContext__Output as _common_v1_AuthContext__Output } from './common/v1/AuthContext.ts';
import type { ClientConnection as _common_v1_ClientConnection, ClientConnection__Output as _common_v1_ClientConnection__Output } from './common/v1/ClientConnection.ts';
import type { ByteRange as _media_v1_ByteRange, ByteRange__Output as _media_v1_ByteRange__Output } from './media/v1/ByteRange.ts';
import type { ClaimRequest as _media_v1_ClaimRequest, ClaimRequest__Output as _media_v1_ClaimRequest__Output } from './media/v1/ClaimRequest.ts';
import type { ClaimResponse as _media_v1_ClaimResponse, ClaimResponse__Output as _media_v1_ClaimResponse__Output } from './media/v1/ClaimResponse.ts';
import type { DownloadChunk as _media_v1_DownloadChunk, DownloadChunk__Output as _media_v1_DownloadChunk__Output } from './media/v1/DownloadChunk.ts';
import type { DownloadHead as _media_v1_DownloadHead, DownloadHead__Output as _media_v1_DownloadHead__Output } from './media/v1/DownloadHead.ts';
import type { DownloadRequest as _media_v1_DownloadRequest, DownloadRequest__Output as _media_v1_DownloadRequest__Output } from './media/v1/DownloadRequest.ts';
import type { ForgetRequest as _media_v1_ForgetRequest, ForgetRequest__Output as _media_v1_ForgetRequest__Output } from './media/v1/ForgetRequest.ts';
import type { MediaServiceClient as _media_v1_MediaServiceClient, MediaServiceDefinition as _media_v1_MediaServiceDefinition } from './media/v1/MediaService.ts';
import type { QueuedFile as _media_v1_QueuedFile, QueuedFile__Output as _media_v1_QueuedFile__Output } from './media/v1/QueuedFile.ts';
import type { ReserveRequest as _media_v1_ReserveRequest, ReserveRequest__Output as _media_v1_ReserveRequest__Output } from './media/v1/ReserveRequest.ts';
import type { ReserveResponse as _media_v1_ReserveResponse, ReserveResponse__Output as _media_v1_ReserveResponse__Output } from './media/v1/ReserveResponse.ts';
import type { ReservedFile as _media_v1_ReservedFile, ReservedFile__Output as _media_v1_ReservedFile__Output } from './media/v1/ReservedFile.ts';
import type { UploadEnd as _media_v1_UploadEnd, UploadEnd__Output as _media_v1_UploadEnd__Output } from './media/v1/UploadEnd.ts';
import type { UploadHeader as _media_v1_UploadHeader, UploadHeader__Output as _media_v1_UploadHeader__Output } from './media/v1/UploadHeader.ts';
import type { UploadRequest as _media_v1_UploadRequest, UploadRequest__Output as _media_v1_UploadRequest__Output } from './media/v1/UploadRequest.ts';

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
  media: {
    v1: {
      ByteRange: MessageTypeDefinition<_media_v1_ByteRange, _media_v1_ByteRange__Output>
      ClaimRequest: MessageTypeDefinition<_media_v1_ClaimRequest, _media_v1_ClaimRequest__Output>
      ClaimResponse: MessageTypeDefinition<_media_v1_ClaimResponse, _media_v1_ClaimResponse__Output>
      DownloadChunk: MessageTypeDefinition<_media_v1_DownloadChunk, _media_v1_DownloadChunk__Output>
      DownloadHead: MessageTypeDefinition<_media_v1_DownloadHead, _media_v1_DownloadHead__Output>
      DownloadOf: EnumTypeDefinition
      DownloadRequest: MessageTypeDefinition<_media_v1_DownloadRequest, _media_v1_DownloadRequest__Output>
      FileVariant: EnumTypeDefinition
      ForgetRequest: MessageTypeDefinition<_media_v1_ForgetRequest, _media_v1_ForgetRequest__Output>
      MediaService: SubtypeConstructor<typeof grpc.Client, _media_v1_MediaServiceClient> & { service: _media_v1_MediaServiceDefinition }
      QueuedFile: MessageTypeDefinition<_media_v1_QueuedFile, _media_v1_QueuedFile__Output>
      ReserveRequest: MessageTypeDefinition<_media_v1_ReserveRequest, _media_v1_ReserveRequest__Output>
      ReserveResponse: MessageTypeDefinition<_media_v1_ReserveResponse, _media_v1_ReserveResponse__Output>
      ReservedFile: MessageTypeDefinition<_media_v1_ReservedFile, _media_v1_ReservedFile__Output>
      UploadEnd: MessageTypeDefinition<_media_v1_UploadEnd, _media_v1_UploadEnd__Output>
      UploadHeader: MessageTypeDefinition<_media_v1_UploadHeader, _media_v1_UploadHeader__Output>
      UploadRequest: MessageTypeDefinition<_media_v1_UploadRequest, _media_v1_UploadRequest__Output>
    }
  }
}

