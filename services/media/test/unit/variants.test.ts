import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@rex/logger';
import { storedKey, variantKey } from '../../src/domain/file-types.ts';
import { localStorage } from '../../src/storage/local.ts';
import { s3Storage } from '../../src/storage/s3.ts';
import type { Storage } from '../../src/storage/storage.ts';
import { createVariantMaker } from '../../src/variants.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'rex-variants-'));
  dirs.push(dir);
  return dir;
};

let s3: S3rver;
let s3Endpoint = '';

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tempDir(), configureBuckets: [{ name: 'media', configs: [] }] });
  const { port } = (await s3.run()) as { port: number };
  s3Endpoint = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const logger = createLogger('media-test', 'silent');
const SIZES = { thumb: 100, med: 500 };
let names = 0;
const nameOf = (extension: string) => `26/11/22/${String(++names).padStart(24, '0')}.${extension}`;

/** A photo as a phone stores it: wider than high in its pixels, turned upright by its EXIF orientation (6: rotate 90°). */
const sidewaysPhoto = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 60 } } })
    .jpeg({ quality: 80 })
    .withMetadata({ orientation: 6 })
    .toBuffer();

async function store(storage: Storage, name: string, content: Buffer) {
  await storage.write(storedKey(name), Readable.from([content]));
}

async function variant(storage: Storage, name: string, which: 'thumb' | 'med') {
  const content = await storage.read(variantKey(name, which));
  return content && buffer(content);
}

const stores: [string, () => Storage][] = [
  ['local', () => localStorage(tempDir())],
  ['s3', () => s3Storage({ bucket: 'media', endpoint: s3Endpoint, region: 'us-east-1', forcePathStyle: true, prefix: 'rex/' })],
];

describe.each(stores)('smaller images in %s storage', (_name, make) => {
  it('when a stored photo is large, then thumb- and med- images are made beside it: upright, at most their size on the longest side, same format, no metadata', async () => {
    const storage = make();
    const name = nameOf('jpg');
    const original = await sidewaysPhoto(3000, 2000);
    await store(storage, name, original);
    expect(await createVariantMaker(storage, SIZES, 100_000_000, logger).make(name, 'image/jpeg')).toBe('made');

    const thumb = await sharp((await variant(storage, name, 'thumb'))!).metadata();
    const med = await sharp((await variant(storage, name, 'med'))!).metadata();
    expect({ format: thumb.format, width: thumb.width, height: thumb.height }).toEqual({ format: 'jpeg', width: 67, height: 100 });
    expect({ format: med.format, width: med.width, height: med.height }).toEqual({ format: 'jpeg', width: 333, height: 500 });
    expect(thumb.exif).toBeUndefined();
    expect(thumb.orientation).toBeUndefined();
    // The original is kept as it came, metadata and all.
    expect((await buffer((await storage.read(storedKey(name)))!)).equals(original)).toBe(true);
  });

  it('when a stored image is small, then its variants are not enlarged; a PNG stays a PNG', async () => {
    const storage = make();
    const name = nameOf('png');
    await store(storage, name, await sharp({ create: { width: 80, height: 40, channels: 4, background: '#00000000' } }).png().toBuffer());
    expect(await createVariantMaker(storage, SIZES, 100_000_000, logger).make(name, 'image/png')).toBe('made');
    for (const which of ['thumb', 'med'] as const) {
      expect(await sharp((await variant(storage, name, which))!).metadata()).toMatchObject({ format: 'png', width: 80, height: 40 });
    }
  });

  it('when a stored file is not an image, cannot be read as one, or holds more pixels than allowed, then no variants are made and the file stays', async () => {
    const storage = make();
    const maker = createVariantMaker(storage, SIZES, 1_000_000, logger);
    const broken = nameOf('jpg');
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(2000, 0x20), Buffer.from([0xff, 0xd9])]);
    await store(storage, broken, fake);
    expect(await maker.make(broken, 'image/jpeg')).toBe('none');
    const truncated = nameOf('jpg');
    await store(storage, truncated, (await sidewaysPhoto(600, 400)).subarray(0, 500));
    expect(await maker.make(truncated, 'image/jpeg')).toBe('none');
    // A small file that would decode to a huge bitmap is refused from its header alone.
    const bomb = nameOf('png');
    await store(storage, bomb, await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer());
    expect(await maker.make(bomb, 'image/png')).toBe('none');
    const pdf = nameOf('pdf');
    await store(storage, pdf, Buffer.from('%PDF-1.7\n'));
    expect(await maker.make(pdf, 'application/pdf')).toBe('none');
    for (const name of [broken, truncated, bomb, pdf]) {
      expect(await storage.exists(variantKey(name, 'thumb'))).toBe(false);
      expect(await storage.exists(variantKey(name, 'med'))).toBe(false);
      expect(await storage.exists(storedKey(name))).toBe(true);
    }
    // A file that is not there gets nothing either.
    expect(await maker.make(nameOf('jpg'), 'image/jpeg')).toBe('none');
  });
});
