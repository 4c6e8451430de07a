import { checkFirstMessage, invalid, writeMessage, type Handlers } from '@rex/grpc';
import type { MediaServiceHandlers, UploadRequest__Output } from '@rex/protos';
import type { Variant } from '../domain/file-types.ts';
import type { DownloadOf, MediaQueue } from '../queue.ts';

const DOWNLOAD_OF: Record<string, DownloadOf | undefined> = {
  DOWNLOAD_OF_QUEUED_UPLOAD: 'upload',
  DOWNLOAD_OF_READABLE_MEDIUM: 'medium',
  DOWNLOAD_OF_PUBLIC_UPLOAD: 'public-upload',
  DOWNLOAD_OF_PUBLIC_MEDIUM: 'public-medium',
};

const VARIANT: Record<string, Variant | undefined> = { FILE_VARIANT_THUMB: 'thumb', FILE_VARIANT_MED: 'med' };

/**
 * The messages after the header: the file's bytes, then its end. A stream
 * that stops without the end, or whose end gives another size, fails, so a
 * cut-off upload is never kept as if it were whole.
 */
async function* fileData(call: AsyncIterable<UploadRequest__Output>): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const message of call) {
    if (message.part === 'end') {
      if (Number(message.end?.size) !== size) throw invalid({ file: 'The upload ended with a size other than the bytes sent.' });
      return;
    }
    if (message.part !== 'data' || !message.data) throw invalid({ file: 'Only file data may follow the header.' });
    size += message.data.length;
    if (message.data.length) yield message.data;
  }
  throw invalid({ file: 'The upload was cut off.' });
}

export function mediaHandlers(queue: MediaQueue): Handlers<MediaServiceHandlers> {
  return {
    Upload: async (call) => {
      const messages = call[Symbol.asyncIterator]();
      const first = await messages.next();
      // Whoever sent it must be a rex service before anything of it is read.
      if (!first.done) checkFirstMessage(first.value);
      if (first.done || first.value.part !== 'header' || !first.value.header) throw invalid({ file: 'The upload must start with its header.' });
      const { auth, field, filename } = first.value.header;
      const rest = { [Symbol.asyncIterator]: () => messages };
      return queue.upload({ auth, field, filename }, fileData(rest));
    },

    Reserve: (request) => queue.reserve(request.auth, request.claimId, request.names),
    Confirm: (request) => queue.confirm(request.claimId, request.names),
    Release: async (request) => ({ files: await queue.release(request.claimId) }),
    Forget: (request) => queue.forget(request.names),

    Download: async (request, call) => {
      const of = DOWNLOAD_OF[request.of];
      if (!of) throw invalid({ of: 'Say which file is asked for: a queued upload, a readable medium, or a public file.' });
      const variant = VARIANT[request.variant];
      const range = request.range ? { first: Number(request.range.first), last: Number(request.range.last), suffix: Number(request.range.suffix) } : undefined;
      const file = await queue.download(request.auth, request.name, of, { variant, range, rangeIfEtag: request.rangeIfEtag, headOnly: request.headOnly });
      // The file is closed however the stream ends, a client that went away included.
      try {
        await writeMessage(call, { head: file.head });
        if (file.content) for await (const chunk of file.content) await writeMessage(call, { data: chunk as Buffer });
      } finally {
        file.content?.destroy();
      }
    },
  };
}
