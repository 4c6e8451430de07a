import type { Request, Response } from 'express';
import busboy from 'busboy';
import type { AuthContext, DownloadChunk__Output, QueuedFile__Output } from '@rex/protos';
import { DEFAULT_MAX_UPLOAD_SIZE, type RestConfig } from '@rex/rest-config';
import { toAuthContext } from '../auth/caller.ts';
import type { MediaClient, Upload } from '../clients/media.ts';
import { UploadPacker } from '../clients/upload-packer.ts';
import { httpErrorFromGrpc } from '../grpc-errors.ts';
import { HttpError } from '../http-error.ts';
import { backend, publicOrigin, servicesUrl } from './context.ts';
import type { Route } from './route.ts';
import { streamAnswer } from './stream-answer.ts';
import type { UploadTurns } from './upload-turns.ts';

/** Most files one upload request may carry. */
const MAX_FILES = 20;

/**
 * Frees a piece of a request's body at once, when the piece is the whole of its memory; a piece
 * sharing its memory with anything else is left to the collector.
 *
 * Node.js copies each piece of a body it reads into memory of its own, outside V8's heap, which
 * V8 frees only in a full collection, started once such memory has grown by 64 MiB: during 32
 * uploads at once, freeing the pieces here took a quarter off the gateway's growth (decision 0043).
 */
export function freePiece(piece: Buffer): void {
  const memory = piece.buffer;
  if (memory instanceof ArrayBuffer && piece.byteOffset === 0 && memory.byteLength === piece.length) memory.transfer(0);
}

/** The answer's key for a form field: `photo` stays `photo`; `file[]` becomes `file[0]`, `file[1]`, ... */
function keyNamer(): (field: string) => string {
  const counts = new Map<string, number>();
  return (field) => {
    if (!field.endsWith('[]')) return field || 'file';
    const base = field.slice(0, -2);
    const index = counts.get(base) ?? 0;
    counts.set(base, index + 1);
    return `${base}[${index}]`;
  };
}

/**
 * Streams each file of a multipart body to the media service as it arrives,
 * pausing the request whenever the service falls behind, so no file is ever
 * held whole in memory; a fast body is read in its turn among the uploads
 * (UploadTurns). Each piece of the body is freed once its bytes are copied on
 * (freePiece). Resolves with the queued files by answer key.
 */
export function receiveFiles(
  req: Request,
  media: MediaClient,
  auth: AuthContext,
  maxUploadSize: number,
  turns: UploadTurns,
): Promise<Map<string, QueuedFile__Output>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // One byte over the limit reaches the media service, which refuses the file as too large.
      // Forms send file names in UTF-8 (busboy would read them as Latin-1).
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: maxUploadSize + 1, files: MAX_FILES, fields: 100 } });
    } catch {
      reject(new HttpError(400, 'The upload must be multipart/form-data with a boundary.'));
      return;
    }
    const keyOf = keyNamer();
    const uploads: Promise<[string, QueuedFile__Output]>[] = [];
    const streams: Upload['stream'][] = [];
    /** Whatever may still hold a view of a piece of the body: each file's unread bytes and its packer's. */
    const holders: (() => boolean)[] = [];
    const holding = () => holders.some((holds) => holds());
    /** Pieces read while something still held a view of them: freed once nothing holds any. */
    const heldPieces: Buffer[] = [];
    let failed = false;
    // The body is read while it may be (UploadTurns) and the parser takes more.
    let parserFull = false;
    let inTurn = false;
    req.pause();
    const readOn = () => {
      if (inTurn && !parserFull && !failed) req.resume();
    };
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      turn.leave();
      // Files still on their way are cancelled, so the media service keeps nothing of them.
      for (const stream of streams) stream.cancel();
      req.resume();
      reject(error);
    };
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, 'The upload was cut off.'));
    });
    parser.on('file', (field, file, info) => {
      holders.push(() => file.readableLength > 0);
      // A body that ends inside a file errors the file's stream too; unheard, that error would end the process.
      file.on('error', () => fail(new HttpError(400, 'The multipart body could not be read.')));
      if (failed) {
        file.resume();
        return;
      }
      // A part without a name (or with name="") comes without a field; it is answered as `file`.
      const key = keyOf(field ?? '');
      const upload = media.upload({ auth, field: key, filename: info.filename ?? '' });
      streams.push(upload.stream);
      // The file's bytes wait in at most two message buffers; the request pauses meanwhile.
      const packer = new UploadPacker(upload.stream, () => file.resume());
      holders.push(() => packer.holding);
      let size = 0;
      file.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!packer.push(chunk)) file.pause();
      });
      file.on('end', () => packer.end(size));
      upload.stream.on('error', () => {
        packer.abandon();
        file.resume();
      });
      const queued = upload.result.then(
        (file): [string, QueuedFile__Output] => [key, file],
        (error: unknown) => {
          packer.abandon();
          file.resume();
          throw httpErrorFromGrpc(error, 'media') ?? error;
        },
      );
      queued.catch(fail);
      uploads.push(queued);
    });
    parser.on('filesLimit', () => fail(new HttpError(413, `At most ${MAX_FILES} files may be uploaded at once.`)));
    parser.on('error', () => fail(new HttpError(400, 'The multipart body could not be read.')));
    parser.on('close', () => {
      if (failed) return;
      Promise.all(uploads).then((queued) => {
        if (!holding()) for (const piece of heldPieces.splice(0)) freePiece(piece);
        if (!queued.length) return fail(new HttpError(400, { file: 'No file was uploaded.' }));
        turn.leave();
        resolve(new Map(queued));
      }, fail);
    });
    // busboy reads each piece whole as it is written, keeping no view of it but a file's bytes
    // not yet read (its text fields are skipped: nothing listens for them), and the packers keep
    // only bytes they could not copy yet. When neither holds any, the piece is freed, and so are
    // the pieces held when they came.
    req.on('data', (piece: Buffer) => {
      // A failed upload's rest is read only to be dropped.
      if (failed) return freePiece(piece);
      const more = parser.write(piece);
      if (failed) return;
      if (!more) {
        parserFull = true;
        turn.holdBack(true);
        req.pause();
        parser.once('drain', () => {
          parserFull = false;
          // Once the body has ended, its turn is held until media answers (below).
          if (!req.readableEnded) turn.holdBack(false);
          readOn();
        });
      }
      if (!turn.piece(piece.length)) {
        inTurn = false;
        req.pause();
      }
      if (holding()) heldPieces.push(piece);
      else {
        freePiece(piece);
        for (const held of heldPieces.splice(0)) freePiece(held);
      }
    });
    req.on('end', () => {
      // The turn lasts until media has the files: their last bytes are still on their way.
      turn.holdBack(true);
      if (!failed) parser.end();
    });
    // Last, once everything listens: the body may be read at once.
    const turn = turns.join(() => {
      inTurn = true;
      readOn();
    });
  });
}

/** A file from the media service: the head gives its type and size. */
export function pipeFile(stream: ReturnType<MediaClient['download']>, res: Response): Promise<void> {
  return streamAnswer(stream, res, 'media', {
    applyHead: (chunk: DownloadChunk__Output) => {
      if (!chunk.head) return false;
      res.status(200).type(chunk.head.contentType).set(downloadHeaders(chunk.head.contentType, chunk.head.size));
      return true;
    },
  });
}

/**
 * A stored file is served as what its content was found to be, never sniffed
 * into something else; anything but an image or a sound opens as an
 * attachment, sandboxed, so a file cannot run script under the API's origin.
 */
export function downloadHeaders(contentType: string, size: number | string): Record<string, string> {
  const inline = /^(image|audio)\//.test(contentType) && contentType !== 'image/svg+xml';
  return {
    'Content-Length': String(size),
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': inline ? 'inline' : 'attachment',
    ...(inline ? {} : { 'Content-Security-Policy': 'sandbox' }),
  };
}

/** {services}/rest/media-queue: upload files to be named by later submissions (`queued`), and read them back. */
export function mediaQueueRoutes(config: RestConfig, media: MediaClient, turns: UploadTurns): Route[] {
  const maxUploadSize = config.media_queue?.max_upload_size ?? DEFAULT_MAX_UPLOAD_SIZE;
  return [
    {
      resource: 'media-queue',
      method: 'post',
      path: '/media-queue',
      upload: true,
      summary: `Upload one or more files (multipart/form-data, any field names, each at most ${maxUploadSize} bytes). Each file's type is decided from its content. The answer gives each file's queued name, which a sample, occurrence or location submission then names in media values.queued.`,
      responses: {
        200: 'An object keyed by form field (file[] fields become file[0], file[1], ...): {"name": queued name, "tempPath": URL of the queued file (<base>/upload-queue/<name>, readable without credentials, unless media.public_files is false)}',
        400: 'No file, or a body that is not multipart/form-data',
        413: 'A file over the size limit',
        415: 'A file whose content is not one of the allowed types',
      },
      handler: async (req, res) => {
        if (!req.is('multipart/form-data')) throw new HttpError(415, 'The upload must be multipart/form-data.');
        const files = await receiveFiles(req, media, toAuthContext(req.caller!), maxUploadSize, turns);
        // Where the apps show the file from before it is saved: without credentials, as the warehouse's upload-queue folder, when public files are on.
        const base = config.media.public_files ? `${publicOrigin(req)}/upload-queue` : `${servicesUrl(req)}/rest/media-queue`;
        res.json(Object.fromEntries([...files].map(([key, file]) => [key, { name: file.name, tempPath: `${base}/${file.name}` }])));
      },
    },
    {
      resource: 'media-queue',
      method: 'get',
      path: '/media-queue/*name',
      summary: "Read back a queued or claimed file uploaded to the caller's website.",
      parameters: [{ name: 'name', in: 'path', type: 'string', description: 'The queued name, e.g. 26/11/22/0a1b….jpg', required: true }],
      responses: { 200: 'The file, with its detected content type', 404: 'No such file for this website, or it has expired' },
      handler: async (req, res) => {
        const name = ([] as string[]).concat((req.params as { name?: string | string[] }).name ?? []).join('/');
        await backend('media', pipeFile(media.download(toAuthContext(req.caller!), name, 'DOWNLOAD_OF_QUEUED_UPLOAD'), res));
      },
    },
  ];
}
