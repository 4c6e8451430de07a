import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, type ByteSpan, type Storage } from './storage.ts';

export type S3Options = { bucket: string; endpoint?: string; region: string; forcePathStyle: boolean; prefix: string };

const isMissing = (error: unknown) => error instanceof NoSuchKey || error instanceof NotFound || (error as { name?: string }).name === 'NotFound';

/**
 * Files in an S3-compatible bucket. Uploads go in parts, so memory stays
 * bounded whatever the file's size; credentials come from the SDK's usual
 * chain (environment, web identity in Kubernetes, instance profile).
 */
export function s3Storage(options: S3Options): Storage {
  const client = new S3Client({ region: options.region, endpoint: options.endpoint, forcePathStyle: options.forcePathStyle });
  const Bucket = options.bucket;
  const keyOf = (key: string) => `${options.prefix}${checkKey(key)}`;
  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };
  const exists = async (key: string) => (await head(key)) !== undefined;
  const read = async (key: string, range?: ByteSpan) => {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key), Range: range && `bytes=${range.start}-${range.end}` }));
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };
  return {
    async write(key, content) {
      await new Upload({ client, params: { Bucket, Key: keyOf(key), Body: content }, queueSize: 2, partSize: 5 * 1024 * 1024 }).done();
    },
    read,
    async stat(key) {
      const found = await head(key);
      return found && { size: found.ContentLength ?? 0, modified: found.LastModified ?? new Date(0) };
    },
    async withLocalFile(key, use) {
      const content = await read(key);
      if (!content) return undefined;
      // A local copy for the duration of `use` only (libvips reads files, not objects).
      const dir = await mkdtemp(join(tmpdir(), 'rex-media-'));
      try {
        const path = join(dir, 'file');
        await pipeline(content, createWriteStream(path, { flags: 'wx' }));
        return await use(path);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async move(from, to) {
      try {
        await client.send(new CopyObjectCommand({ Bucket, Key: keyOf(to), CopySource: `${Bucket}/${keyOf(from)}` }));
      } catch (error) {
        if (isMissing(error) && (await exists(to))) return;
        throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(from) }));
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    exists,
  };
}
