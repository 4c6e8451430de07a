import { ServiceClient, type grpc, type CallSecret } from '@rex/grpc';
import { mediaV1, type AuthContext, type DownloadChunk__Output, type DownloadRequest, type MediaServiceClient, type QueuedFile__Output, type UploadRequest } from '@rex/protos';

export type DownloadOf = 'DOWNLOAD_OF_QUEUED_UPLOAD' | 'DOWNLOAD_OF_READABLE_MEDIUM' | 'DOWNLOAD_OF_PUBLIC_UPLOAD' | 'DOWNLOAD_OF_PUBLIC_MEDIUM';
export type DownloadOptions = Pick<DownloadRequest, 'variant' | 'range' | 'rangeIfEtag' | 'headOnly'>;

export type Upload = {
  /** Where the file's messages go, in order (see UploadPacker). */
  stream: grpc.ClientWritableStream<UploadRequest | Buffer>;
  result: Promise<QueuedFile__Output>;
};

/** The gateway's client of the media service: uploads stream in, downloads stream out. */
export function createMediaClient(address: string, secret: CallSecret, deadlineMs: number) {
  const client = new ServiceClient(mediaV1.MediaService, address, secret);
  return {
    upload(header: { auth: AuthContext; field: string; filename: string }): Upload {
      let stream!: grpc.ClientWritableStream<UploadRequest | Buffer>;
      const result = new Promise<QueuedFile__Output>((resolve, reject) => {
        stream = client.clientStream<UploadRequest, QueuedFile__Output>('Upload', { header }, deadlineMs, (error, file) =>
          error ? reject(error) : resolve(file!),
        );
      });
      return { stream, result };
    },
    /**
     * A file: a still-queued upload of the caller's, the stored file of a
     * medium records let the caller read, or (without credentials) a public
     * one; whole or in part, or only its head.
     */
    download: (auth: AuthContext | null, name: string, of: DownloadOf, options: DownloadOptions = {}): grpc.ClientReadableStream<DownloadChunk__Output> =>
      client.serverStream<DownloadChunk__Output>('Download', { auth, name, of, ...options }, deadlineMs),
    close: () => client.close(),
  };
}

export type MediaClient = ReturnType<typeof createMediaClient>;
