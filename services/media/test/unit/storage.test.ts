import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../../src/storage/local.ts';
import { s3Storage } from '../../src/storage/s3.ts';
import type { Storage } from '../../src/storage/storage.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'rex-media-'));
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

const stores: [string, () => Storage][] = [
  ['local', () => localStorage(tempDir())],
  ['s3', () => s3Storage({ bucket: 'media', endpoint: s3Endpoint, region: 'us-east-1', forcePathStyle: true, prefix: 'rex/' })],
];

describe.each(stores)('%s storage', (_name, make) => {
  it('writes, reads, moves and removes a file', async () => {
    const storage = make();
    await storage.write('queue/26/11/22/a.jpg', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(await text((await storage.read('queue/26/11/22/a.jpg'))!)).toBe('hello world');
    await storage.move('queue/26/11/22/a.jpg', 'files/26/11/22/a.jpg');
    expect(await storage.exists('queue/26/11/22/a.jpg')).toBe(false);
    expect(await text((await storage.read('files/26/11/22/a.jpg'))!)).toBe('hello world');
    // A repeated move (a confirmation retried) finds the file already in place.
    await storage.move('queue/26/11/22/a.jpg', 'files/26/11/22/a.jpg');
    await storage.remove('files/26/11/22/a.jpg');
    expect(await storage.read('files/26/11/22/a.jpg')).toBeUndefined();
  });

  it('keeps nothing of a write whose source fails', async () => {
    const storage = make();
    async function* failing() {
      yield Buffer.alloc(1024, 1);
      throw new Error('client went away');
    }
    await expect(storage.write('queue/26/11/22/b.jpg', Readable.from(failing()))).rejects.toThrow('client went away');
    expect(await storage.exists('queue/26/11/22/b.jpg')).toBe(false);
  });

  it("tells a file's size, reads a range of it, and lends it as a local file only while it is used", async () => {
    const storage = make();
    await storage.write('files/26/11/22/c.jpg', Readable.from([Buffer.from('0123456789')]));
    expect(await storage.stat('files/26/11/22/c.jpg')).toMatchObject({ size: 10, modified: expect.any(Date) });
    expect(await storage.stat('files/26/11/22/missing.jpg')).toBeUndefined();
    expect(await text((await storage.read('files/26/11/22/c.jpg', { start: 2, end: 5 }))!)).toBe('2345');
    let lent = '';
    expect(await storage.withLocalFile('files/26/11/22/c.jpg', async (path) => ((lent = path), readFileSync(path, 'utf8')))).toBe('0123456789');
    // A copy made for the loan is gone afterwards; a local store lends its own file.
    expect(existsSync(lent)).toBe(_name === 'local');
    expect(await storage.withLocalFile('files/26/11/22/missing.jpg', async () => 'used')).toBeUndefined();
  });

  it('refuses keys that could leave the store', async () => {
    const storage = make();
    await expect(storage.write('queue/../../etc/passwd', Readable.from([Buffer.from('x')]))).rejects.toThrow('bad storage key');
  });
});
