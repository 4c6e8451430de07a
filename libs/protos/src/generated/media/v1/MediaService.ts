// Original file: media/v1/media_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClaimRequest as _media_v1_ClaimRequest, ClaimRequest__Output as _media_v1_ClaimRequest__Output } from '../../media/v1/ClaimRequest.ts';
import type { ClaimResponse as _media_v1_ClaimResponse, ClaimResponse__Output as _media_v1_ClaimResponse__Output } from '../../media/v1/ClaimResponse.ts';
import type { DownloadChunk as _media_v1_DownloadChunk, DownloadChunk__Output as _media_v1_DownloadChunk__Output } from '../../media/v1/DownloadChunk.ts';
import type { DownloadRequest as _media_v1_DownloadRequest, DownloadRequest__Output as _media_v1_DownloadRequest__Output } from '../../media/v1/DownloadRequest.ts';
import type { ForgetRequest as _media_v1_ForgetRequest, ForgetRequest__Output as _media_v1_ForgetRequest__Output } from '../../media/v1/ForgetRequest.ts';
import type { QueuedFile as _media_v1_QueuedFile, QueuedFile__Output as _media_v1_QueuedFile__Output } from '../../media/v1/QueuedFile.ts';
import type { ReserveRequest as _media_v1_ReserveRequest, ReserveRequest__Output as _media_v1_ReserveRequest__Output } from '../../media/v1/ReserveRequest.ts';
import type { ReserveResponse as _media_v1_ReserveResponse, ReserveResponse__Output as _media_v1_ReserveResponse__Output } from '../../media/v1/ReserveResponse.ts';
import type { UploadRequest as _media_v1_UploadRequest, UploadRequest__Output as _media_v1_UploadRequest__Output } from '../../media/v1/UploadRequest.ts';

export interface MediaServiceClient extends grpc.Client {
  Confirm(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Confirm(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Confirm(argument: _media_v1_ClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Confirm(argument: _media_v1_ClaimRequest, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  confirm(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  confirm(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  confirm(argument: _media_v1_ClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  confirm(argument: _media_v1_ClaimRequest, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  
  Download(argument: _media_v1_DownloadRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_media_v1_DownloadChunk__Output>;
  Download(argument: _media_v1_DownloadRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_media_v1_DownloadChunk__Output>;
  download(argument: _media_v1_DownloadRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_media_v1_DownloadChunk__Output>;
  download(argument: _media_v1_DownloadRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_media_v1_DownloadChunk__Output>;
  
  Forget(argument: _media_v1_ForgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Forget(argument: _media_v1_ForgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Forget(argument: _media_v1_ForgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Forget(argument: _media_v1_ForgetRequest, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _media_v1_ForgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _media_v1_ForgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _media_v1_ForgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  forget(argument: _media_v1_ForgetRequest, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  
  Release(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _media_v1_ClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  Release(argument: _media_v1_ClaimRequest, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _media_v1_ClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _media_v1_ClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  release(argument: _media_v1_ClaimRequest, callback: grpc.requestCallback<_media_v1_ClaimResponse__Output>): grpc.ClientUnaryCall;
  
  Reserve(argument: _media_v1_ReserveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  Reserve(argument: _media_v1_ReserveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  Reserve(argument: _media_v1_ReserveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  Reserve(argument: _media_v1_ReserveRequest, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  reserve(argument: _media_v1_ReserveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  reserve(argument: _media_v1_ReserveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  reserve(argument: _media_v1_ReserveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  reserve(argument: _media_v1_ReserveRequest, callback: grpc.requestCallback<_media_v1_ReserveResponse__Output>): grpc.ClientUnaryCall;
  
  Upload(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  Upload(metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  Upload(options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  Upload(callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  upload(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  upload(metadata: grpc.Metadata, callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  upload(options: grpc.CallOptions, callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  upload(callback: grpc.requestCallback<_media_v1_QueuedFile__Output>): grpc.ClientWritableStream<_media_v1_UploadRequest>;
  
}

export interface MediaServiceHandlers extends grpc.UntypedServiceImplementation {
  Confirm: grpc.handleUnaryCall<_media_v1_ClaimRequest__Output, _media_v1_ClaimResponse>;
  
  Download: grpc.handleServerStreamingCall<_media_v1_DownloadRequest__Output, _media_v1_DownloadChunk>;
  
  Forget: grpc.handleUnaryCall<_media_v1_ForgetRequest__Output, _media_v1_ClaimResponse>;
  
  Release: grpc.handleUnaryCall<_media_v1_ClaimRequest__Output, _media_v1_ClaimResponse>;
  
  Reserve: grpc.handleUnaryCall<_media_v1_ReserveRequest__Output, _media_v1_ReserveResponse>;
  
  Upload: grpc.handleClientStreamingCall<_media_v1_UploadRequest__Output, _media_v1_QueuedFile>;
  
}

export interface MediaServiceDefinition extends grpc.ServiceDefinition {
  Confirm: MethodDefinition<_media_v1_ClaimRequest, _media_v1_ClaimResponse, _media_v1_ClaimRequest__Output, _media_v1_ClaimResponse__Output>
  Download: MethodDefinition<_media_v1_DownloadRequest, _media_v1_DownloadChunk, _media_v1_DownloadRequest__Output, _media_v1_DownloadChunk__Output>
  Forget: MethodDefinition<_media_v1_ForgetRequest, _media_v1_ClaimResponse, _media_v1_ForgetRequest__Output, _media_v1_ClaimResponse__Output>
  Release: MethodDefinition<_media_v1_ClaimRequest, _media_v1_ClaimResponse, _media_v1_ClaimRequest__Output, _media_v1_ClaimResponse__Output>
  Reserve: MethodDefinition<_media_v1_ReserveRequest, _media_v1_ReserveResponse, _media_v1_ReserveRequest__Output, _media_v1_ReserveResponse__Output>
  Upload: MethodDefinition<_media_v1_UploadRequest, _media_v1_QueuedFile, _media_v1_UploadRequest__Output, _media_v1_QueuedFile__Output>
}
