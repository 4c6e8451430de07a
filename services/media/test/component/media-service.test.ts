// MediaService in this process, over a real gRPC server, database and local
// storage: uploads into the queue, claims by a submission, and downloads whole,
// in part and as smaller images, refused to whoever may not have them.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mediaV1, type AuthContext, type DownloadChunk__Output, type DownloadHead__Output, type DownloadRequest, type MediaServiceClient, type QueuedFile__Output, type UploadRequest } from '@rex/protos';
import { loadRestConfig } from '@rex/rest-config';
import { png } from '../../../../scripts/images-in-memory.ts';
import { MediaEnv } from '../../src/config.ts';
import { startMediaServer } from '../../src/server.ts';
import { clientOf, failure, freshDatabase, serve, settings, silentLogger, temporaryDirectory, userOf } from '../../../../component/support/served.ts';

const uploader = userOf(1, 10);
const stranger = userOf(2, 20);

let media: ReturnType<typeof clientOf<MediaServiceClient>>;

/** Streams `content` as the gateway does: the header, the bytes in chunks, then the end with the size sent. */
function upload(auth: AuthContext, content: Buffer, filename: string, endSize = content.length): Promise<QueuedFile__Output> {
  return new Promise((resolve, reject) => {
    const stream = media.raw.clientStream<UploadRequest, QueuedFile__Output>('Upload', { header: { auth, field: 'photo', filename } }, 10_000, (error, file) =>
      error ? reject(error) : resolve(file!),
    );
    for (let at = 0; at < content.length; at += 16 * 1024) stream.write({ data: content.subarray(at, at + 16 * 1024) });
    stream.end({ end: { size: endSize } });
  });
}

/** A download read to its end: the head and the bytes that followed it. */
async function download(request: DownloadRequest): Promise<{ head: DownloadHead__Output; bytes: Buffer }> {
  const stream = media.raw.serverStream<DownloadChunk__Output>('Download', request, 10_000);
  let head: DownloadHead__Output | undefined;
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<DownloadChunk__Output>) {
    if (chunk.head) head = chunk.head;
    if (chunk.data) parts.push(chunk.data);
  }
  return { head: head!, bytes: Buffer.concat(parts) };
}

const photo = png(640, 480);

beforeAll(async () => {
  const databaseUrl = await freshDatabase('media');
  const dataDir = temporaryDirectory('media');
  const config = settings(MediaEnv, { DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'true', REX_DATA_DIR: dataDir });
  const served = await serve('media.v1.MediaService', () => startMediaServer(config, loadRestConfig(), silentLogger('media')));
  media = clientOf<MediaServiceClient>(mediaV1.MediaService, served);
});

describe('the queue', () => {
  it('when an image is uploaded, then its type comes from its content and its uploader gets it back whole or in part', async () => {
    const queued = await upload(uploader, photo, 'not-really.txt');
    expect(queued).toMatchObject({ contentType: 'image/png', mediaType: 'Image:Local', size: String(photo.length) });
    expect(queued.name).toMatch(/\.png$/);
    const whole = await download({ auth: uploader, name: queued.name, of: 'DOWNLOAD_OF_QUEUED_UPLOAD' });
    expect(whole.head).toMatchObject({ contentType: 'image/png', totalSize: String(photo.length), partial: false });
    expect(whole.bytes.equals(photo)).toBe(true);
    const part = await download({ auth: uploader, name: queued.name, of: 'DOWNLOAD_OF_QUEUED_UPLOAD', range: { first: 8, last: 15 } });
    expect(part.head).toMatchObject({ partial: true, first: '8', size: '8' });
    expect(part.bytes.equals(photo.subarray(8, 16))).toBe(true);
    expect((await failure(download({ auth: stranger, name: queued.name, of: 'DOWNLOAD_OF_QUEUED_UPLOAD' }))).code).toBe(grpc.status.NOT_FOUND);
  });

  it('when a claim is not a UUID, then INVALID_ARGUMENT names it', async () => {
    const refused = await failure(media.Reserve({ auth: uploader, claimId: 'claim-1', names: [] }));
    expect(refused.violations.map((violation) => violation.field)).toEqual(['claim_id']);
  });

  it('when a file of a type not allowed, or one whose end gives another size, is uploaded, then it is refused and nothing is kept', async () => {
    const refused = await failure(upload(uploader, Buffer.from('#!/bin/sh\necho hello\n'), 'script.sh'));
    expect(refused.reason).toBe('FILE_TYPE_NOT_ALLOWED');
    const cut = await failure(upload(uploader, photo, 'photo.png', photo.length + 1));
    expect(cut.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(cut.violations.map((violation) => violation.field)).toEqual(['file']);
  });
});

describe('claims', () => {
  it('when a submission reserves and confirms a file, then it is stored with its smaller images, and no other claim may take it', async () => {
    const { name } = await upload(uploader, photo, 'photo.png');
    const [claim, other] = [randomUUID(), randomUUID()];
    const reserved = await media.Reserve({ auth: uploader, claimId: claim, names: [name] });
    expect(reserved.files.map((file) => file.name)).toEqual([name]);
    const confirmed = await media.Confirm({ claimId: claim, names: [name] });
    expect(confirmed.names).toEqual([name]);
    expect((await media.Confirm({ claimId: claim, names: [name] })).names).toEqual([name]);
    const stored = await download({ auth: uploader, name, of: 'DOWNLOAD_OF_READABLE_MEDIUM' });
    expect(stored.bytes.equals(photo)).toBe(true);
    // The smaller images are made once the confirmation has answered.
    const thumb = await vi.waitFor(() => download({ auth: uploader, name, of: 'DOWNLOAD_OF_READABLE_MEDIUM', variant: 'FILE_VARIANT_THUMB' }), { timeout: 10_000, interval: 50 });
    expect(thumb.head.contentType).toMatch(/^image\//);
    expect(thumb.bytes.length).toBeLessThan(photo.length);
    const again = await media.Reserve({ auth: uploader, claimId: other, names: [name] });
    expect(again.files).toEqual([]);
    expect(Object.keys(again.refused)).toEqual([name]);
  });

  it('when a submission is not saved, then the files it reserved return to the queue for the next one', async () => {
    const { name } = await upload(uploader, photo, 'photo.png');
    const [lost, retry] = [randomUUID(), randomUUID()];
    await media.Reserve({ auth: uploader, claimId: lost, names: [name] });
    expect((await media.Release({ claimId: lost, names: [] })).files).toBe(1);
    const next = await media.Reserve({ auth: uploader, claimId: retry, names: [name] });
    expect(next.files.map((file) => file.name)).toEqual([name]);
  });

  it('when another website names a queued file, then it may not reserve it', async () => {
    const { name } = await upload(uploader, photo, 'photo.png');
    const refused = await media.Reserve({ auth: stranger, claimId: randomUUID(), names: [name] });
    expect(refused.files).toEqual([]);
    expect(Object.keys(refused.refused)).toEqual([name]);
  });
});
