import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { grpc } from '@rex/grpc';
import type { DownloadChunk__Output, DownloadHead__Output, FileVariant } from '@rex/protos';
import type { DownloadOf, MediaClient } from '../clients/media.ts';
import { HttpError, errorBody } from '../http-error.ts';
import { backend } from './context.ts';
import { downloadHeaders } from './media-queue.ts';
import { noneMatch, parseRange } from './range-header.ts';
import { streamAnswer } from './stream-answer.ts';

/** A file's name as the media queue gives it: three date folders, 96 random bits, the type's extension. */
const NAME = String.raw`\d{2}/\d{2}/\d{2}/[0-9a-f]{24}\.[a-z0-9]{1,8}`;

/** `/upload/<name>` with its `thumb-`/`med-` images, as the warehouse lays them out; `/upload-queue/<name>`. */
const PLACES: { prefix: string; of: DownloadOf; pattern: RegExp }[] = [
  { prefix: '/upload', of: 'DOWNLOAD_OF_PUBLIC_MEDIUM', pattern: new RegExp(`^/upload/(?:(thumb|med)-)?(${NAME})$`) },
  { prefix: '/upload-queue', of: 'DOWNLOAD_OF_PUBLIC_UPLOAD', pattern: new RegExp(`^/upload-queue/()(${NAME})$`) },
];

const VARIANTS: Record<string, FileVariant> = { thumb: 'FILE_VARIANT_THUMB', med: 'FILE_VARIANT_MED' };

/**
 * The file a request names, from the path exactly as it was sent: a name
 * never holds an encoded character, a backslash or a dot segment, so a path
 * that does is refused before anything looks it up.
 */
function fileOf(req: Request, pattern: RegExp): { name: string; variant?: FileVariant } {
  const path = req.originalUrl.split('?')[0];
  if (/[%\\]|\/\.{1,2}(\/|$)|\/\//.test(path)) {
    throw new HttpError(400, 'A file path holds the file name only: no encoded characters, backslashes or dot segments.');
  }
  const match = pattern.exec(path);
  if (!match) throw new HttpError(404);
  return { name: match[2], variant: match[1] ? VARIANTS[match[1]] : undefined };
}

/** The head of a file, without its bytes. */
function headOf(stream: grpc.ClientReadableStream<DownloadChunk__Output>): Promise<DownloadHead__Output> {
  return new Promise((resolve, reject) => {
    stream.on('data', (message: DownloadChunk__Output) => message.head && resolve(message.head));
    stream.on('error', reject);
    stream.on('end', () => reject(new Error('the media service answered no head')));
  });
}

/**
 * GET and HEAD of the files the apps build links to themselves: claimed
 * files at `/upload/<name>` (and `/upload/thumb-<name>`, `/upload/med-<name>`),
 * queued ones at `/upload-queue/<name>`, with no credentials (a name carries
 * 96 random bits). Cacheable for `maxAgeSeconds`, with an ETag; a single
 * byte range is served as 206 (416 outside the file). The file is streamed
 * from the media service as it comes.
 */
export function publicFilesRouter(media: MediaClient, options: { maxAgeSeconds: number; limits: RequestHandler[] }): Router {
  const router = express.Router();
  const cacheControl = `public, max-age=${options.maxAgeSeconds}`;

  async function serve(req: Request, res: Response, of: DownloadOf, pattern: RegExp): Promise<void> {
    const { name, variant } = fileOf(req, pattern);
    const common = (etag: string) => ({ ETag: etag, 'Cache-Control': cacheControl, 'Accept-Ranges': 'bytes', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    const ifNoneMatch = req.get('if-none-match');
    if (ifNoneMatch) {
      const head = await backend('media', headOf(media.download(null, name, of, { variant, headOnly: true })));
      if (noneMatch(ifNoneMatch, head.etag)) {
        res.status(304).set(common(head.etag)).end();
        return;
      }
    }
    const isHead = req.method === 'HEAD';
    const range = isHead ? undefined : parseRange(req.get('range'));
    // If-Range holds the ETag the client has part of; a date (or anything else) matches no ETag, so the whole file comes.
    const rangeIfEtag = range ? (req.get('if-range') ?? '') : '';
    let unsatisfiable = false;
    const stream = media.download(null, name, of, { variant, range, rangeIfEtag, headOnly: isHead });
    await backend(
      'media',
      streamAnswer(stream, res, 'media', {
        applyHead: (chunk) => {
          if (!chunk.head) return false;
          const head = chunk.head;
          res.set(common(head.etag));
          if (head.unsatisfiable) {
            unsatisfiable = true;
            res.status(416).type('json').set('Content-Range', `bytes */${head.totalSize}`);
            return true;
          }
          res.status(head.partial ? 206 : 200).type(head.contentType).set(downloadHeaders(head.contentType, head.size));
          if (head.partial) res.set('Content-Range', `bytes ${head.first}-${Number(head.first) + Number(head.size) - 1}/${head.totalSize}`);
          return true;
        },
        finish: () => (unsatisfiable ? JSON.stringify(errorBody(416, 'The range asked for lies outside the file.')) : undefined),
      }),
    );
  }

  for (const { prefix, of, pattern } of PLACES) {
    const path = `${prefix}/*name`;
    router.get(path, ...options.limits, (req: Request, res: Response, next: NextFunction) => {
      serve(req, res, of, pattern).catch(next);
    });
    router.options(path, (_req, res) => {
      res.set('Allow', 'GET, HEAD, OPTIONS').status(200).end();
    });
    router.all(path, (_req, res) => {
      res.set('Allow', 'GET, HEAD, OPTIONS').status(405).json(errorBody(405, 'Files are only read here: GET or HEAD.'));
    });
  }
  return router;
}

const ERROR = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/** One read of a public file in the OpenAPI document. */
function readOperation(operationId: string, summary: string, name: { name: string; description: string }) {
  const header = (header: string, description: string) => ({ name: header, in: 'header', required: false, description, schema: { type: 'string' } });
  return {
    operationId,
    summary,
    tags: ['files'],
    security: [],
    parameters: [
      { name: name.name, in: 'path', required: true, description: name.description, schema: { type: 'string' } },
      header('Range', 'One byte range: bytes=<first>-<last>, bytes=<first>- or bytes=-<suffix>; anything else gets the whole file'),
      header('If-Range', 'The ETag of the version the client holds part of: the range only of that version'),
      header('If-None-Match', 'ETags the client holds: 304 when one is current'),
    ],
    responses: {
      200: { description: 'The file, with Content-Type, ETag, Cache-Control and X-Content-Type-Options: nosniff', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
      206: { description: 'The range asked for, with Content-Range', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
      304: { description: 'Not modified (If-None-Match)' },
      400: { description: 'A path holding encoded characters, backslashes or dot segments', ...ERROR },
      404: { description: 'No such file (or public files are off)', ...ERROR },
      416: { description: 'A range outside the file; Content-Range: bytes */<size>', ...ERROR },
    },
  };
}

/**
 * The public file paths for the OpenAPI document: they live beside the
 * service root, at the base address, so each names its own server.
 */
export function publicFilesOpenApi(baseUrl: string): Record<string, unknown> {
  const servers = [{ url: baseUrl }];
  const stored = { name: 'path', description: "A medium's path (26/11/22/<id>.jpg), or thumb-/med- before it for the smaller images of an image" };
  const queued = { name: 'name', description: 'The name the media queue gave the upload' };
  const saved = "A saved medium's file, or the thumb- and med- images of an image, while the medium lives; no credentials.";
  const waiting = 'A queued upload (the tempPath of the media queue), until a record claims it or it expires; no credentials.';
  return {
    '/upload/{path}': { servers, get: readOperation('getUploadFile', saved, stored), head: readOperation('headUploadFile', saved, stored) },
    '/upload-queue/{name}': { servers, get: readOperation('getUploadQueueFile', waiting, queued), head: readOperation('headUploadQueueFile', waiting, queued) },
  };
}
