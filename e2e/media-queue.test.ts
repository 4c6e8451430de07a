import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '@rex/admin';
import { startGateway } from './support/gateway.ts';
import { jpeg, upload } from './support/media.ts';
import { OTHER_USER, SECOND_WEBSITE, addToWorld, dbQuery, eventually, services, setUpWorld, token } from './support/world.ts';

let demoToken: string;

/** What the queue holds: its rows and the files (complete or partial) on the local volume. */
async function queueContents() {
  const [{ count }] = await dbQuery<{ count: string }>('SELECT count(*)::text AS count FROM media.files');
  const files = (readdirSync(join(inject('dataDir'), 'media'), { recursive: true }) as string[]).filter((path) => /\.(jpg|pdf|part)$/.test(path));
  return { rows: Number(count), files: files.length };
}

beforeAll(async () => {
  await setUpWorld();
  demoToken = await token();
});

describe('media queue', () => {
  it('when files are uploaded, then each is queued under its field and can be read back by its website only', async () => {
    const photo = jpeg(50_000);
    const answer = await upload(
      [
        ['photo', photo, 'holiday.jpg', 'image/jpeg'],
        ['file[]', jpeg(3000), 'a.jpg'],
        ['file[]', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'), 'notes.pdf', 'application/pdf'],
      ],
      demoToken,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['photo', 'file[0]', 'file[1]']);
    expect(answer.body.photo.name).toMatch(/^\d{2}\/\d{2}\/\d{2}\/[0-9a-f]{24}\.jpg$/);
    expect(answer.body['file[1]'].name).toMatch(/\.pdf$/);
    // The apps show a file from its tempPath before the record is saved, as an image source: without credentials.
    expect(answer.body.photo.tempPath).toBe(`${inject('gatewayUrl')}/upload-queue/${answer.body.photo.name}`);
    const shown = await fetch(answer.body.photo.tempPath);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/jpeg');
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await shown.arrayBuffer()).equals(photo)).toBe(true);

    // Through the API a queued file is read back by its uploader only.
    const apiPath = `${services()}/media-queue/${answer.body.photo.name}`;
    const read = await fetch(apiPath, { headers: { Authorization: `Bearer ${demoToken}` } });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await read.arrayBuffer()).equals(photo)).toBe(true);

    const elsewhere = await fetch(apiPath, { headers: { Authorization: `Bearer ${await token({ key: 'second', userId: SECOND_WEBSITE.userId })}` } });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ code: 404 });
    // Another user of the same website does not get it either: a queued file is its uploader's.
    const otherUser = await fetch(apiPath, { headers: { Authorization: `Bearer ${await token({ userId: OTHER_USER })}` } });
    expect(otherUser.status).toBe(404);
  });

  it('when several large files are uploaded at once, then each is read back byte for byte, with nothing of another', async () => {
    // Random bytes between a JPEG's start and end: a file mixed with another's, or with itself, would not compare equal.
    const photo = (size: number) => {
      const file = jpeg(size);
      randomBytes(size - 14).copy(file, 12);
      return file;
    };
    const photos = [photo(1_300_000), photo(700_001), photo(2_000_000)];
    const answers = await Promise.all(photos.map((file, i) => upload([['photo', file, `large-${i}.jpg`]], demoToken)));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, answer.text).toBe(200);
      const read = await fetch(`${services()}/media-queue/${answer.body.photo.name}`, { headers: { Authorization: `Bearer ${demoToken}` } });
      expect(read.status).toBe(200);
      expect(Buffer.from(await read.arrayBuffer()).equals(photos[i])).toBe(true);
    }
  });

  it('when a file is not of an allowed type by its content, then it is refused with 415 whatever its name says', async () => {
    const before = await queueContents();
    const answer = await upload([['photo', Buffer.from('<?php system($_GET["c"]); ?>'), 'innocent.jpg', 'image/jpeg']], demoToken);
    expect(answer.status).toBe(415);
    expect(await queueContents()).toEqual(before);
    expect(answer.body).toEqual({ code: 415, status: 'Unsupported Media Type', message: { photo: 'The file is not one of the allowed types.' } });
  });

  it('when a file is over the size limit, then it is refused with 413 and nothing is queued', async () => {
    const before = await queueContents();
    const answer = await upload([['photo', jpeg(8 * 1024 * 1024 + 10), 'huge.jpg']], demoToken);
    expect(answer.status).toBe(413);
    expect(await queueContents()).toEqual(before);
    expect(answer.body).toEqual({ code: 413, status: 'Payload Too Large', message: { photo: 'The file size exceeds the maximum allowed.' } });
  });

  it('when the body is not a multipart form or holds no file, then the answer is a JSON error', async () => {
    const json = await fetch(`${services()}/media-queue`, { method: 'POST', body: '{}', headers: { Authorization: `Bearer ${demoToken}`, 'Content-Type': 'application/json' } });
    expect(json.status).toBe(415);
    expect(((await json.json()) as { code: number }).code).toBe(415);
    const form = new FormData();
    form.append('caption', 'no file here');
    const empty = await fetch(`${services()}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${demoToken}` } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 400, message: { file: 'No file was uploaded.' } });
  });

  it('when the caller is not authenticated, then the upload is refused with 401', async () => {
    const form = new FormData();
    form.append('photo', new Blob([jpeg()]), 'a.jpg');
    const answer = await fetch(`${services()}/media-queue`, { method: 'POST', body: form });
    expect(answer.status).toBe(401);
    expect((await upload([['photo', jpeg(), 'a.jpg']], await token({ userId: OTHER_USER }))).status).toBe(200);
  });

  it('when a queued file expires unclaimed, then it is deleted, and a name it had can no longer be claimed', async () => {
    const answer = await upload([['photo', jpeg(), 'old.jpg']], demoToken);
    const name = answer.body.photo.name;
    await dbQuery("UPDATE media.files SET expires_on = now() - interval '1 second' WHERE name = $1", [name]);
    await eventually(async () => expect(await dbQuery('SELECT name FROM media.files WHERE name = $1', [name])).toEqual([]));
    expect(existsSync(join(inject('dataDir'), 'media', 'queue', name))).toBe(false);
    expect((await fetch(answer.body.photo.tempPath)).status).toBe(404);
    expect((await fetch(`${services()}/media-queue/${name}`, { headers: { Authorization: `Bearer ${demoToken}` } })).status).toBe(404);
  });

  it('when a saved submission could not confirm its files, then records confirms them later and they move to storage', async () => {
    const answer = await upload([['photo', jpeg(), 'late.jpg']], demoToken);
    const name = answer.body.photo.name;
    // As left by a records process stopped between its commit and the confirmation.
    await dbQuery("INSERT INTO records.media_claims (path, claim_id, created_on) VALUES ($1, gen_random_uuid(), now() - interval '1 minute')", [name]);
    await eventually(async () => expect(await dbQuery('SELECT confirmed FROM records.media_claims WHERE path = $1', [name])).toEqual([{ confirmed: true }]));
    expect(await dbQuery('SELECT state FROM media.files WHERE name = $1', [name])).toEqual([{ state: 'claimed' }]);
    expect(existsSync(join(inject('dataDir'), 'media', 'files', name))).toBe(true);
    expect(existsSync(join(inject('dataDir'), 'media', 'queue', name))).toBe(false);
  });

  it('when media never confirms a claim, then records stops retrying at the limit and counts it for an operator', async () => {
    const name = '26/01/01/000000000000000000000000.jpg';
    // One retry short of the limit (50), for a file media does not have.
    await dbQuery("INSERT INTO records.media_claims (path, claim_id, created_on, confirm_attempts) VALUES ($1, gen_random_uuid(), now() - interval '1 minute', 49)", [name]);
    await eventually(async () => expect(await dbQuery('SELECT confirm_attempts FROM records.media_claims WHERE path = $1', [name])).toEqual([{ confirm_attempts: 50 }]));
    await eventually(async () => {
      const metrics = await (await fetch(inject('recordsMetricsUrl'))).text();
      expect(Number(/^rex_media_claims_unconfirmable (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await dbQuery('SELECT confirm_attempts, confirmed FROM records.media_claims WHERE path = $1', [name])).toEqual([{ confirm_attempts: 50, confirmed: false }]);
    await dbQuery('DELETE FROM records.media_claims WHERE path = $1', [name]);
  });

  it('when a saved claim finds its file held by another submission, then it is confirmed only once that one lets go', async () => {
    const answer = await upload([['photo', jpeg(), 'contested.jpg']], demoToken);
    const name = answer.body.photo.name;
    await dbQuery("UPDATE media.files SET claim_id = gen_random_uuid(), reserved_until = now() + interval '1 hour' WHERE name = $1", [name]);
    await dbQuery("INSERT INTO records.media_claims (path, claim_id, created_on) VALUES ($1, gen_random_uuid(), now() - interval '1 minute')", [name]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await dbQuery('SELECT confirmed FROM records.media_claims WHERE path = $1', [name])).toEqual([{ confirmed: false }]);
    expect(await dbQuery('SELECT state FROM media.files WHERE name = $1', [name])).toEqual([{ state: 'queued' }]);
    await dbQuery('UPDATE media.files SET claim_id = NULL, reserved_until = NULL WHERE name = $1', [name]);
    await eventually(async () => expect(await dbQuery('SELECT confirmed FROM records.media_claims WHERE path = $1', [name])).toEqual([{ confirmed: true }]));
    expect(await dbQuery('SELECT state FROM media.files WHERE name = $1', [name])).toEqual([{ state: 'claimed' }]);
  });

  it('when the configuration sets media_queue limits, then they replace the defaults', async () => {
    const gateway = await startGateway(
      { authentication_methods: { jwtUser: { allow_http: true } }, media_queue: { max_upload_size: 10_000, allowed_file_types: ['png'] } },
      {},
      false,
      true,
    );
    try {
      const send = async (content: Buffer) => {
        const form = new FormData();
        form.append('photo', new Blob([content]), 'photo');
        const response = await fetch(`${gateway.services}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${demoToken}` } });
        return { status: response.status, body: (await response.json()) as { message?: unknown } };
      };
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(2000)]);
      expect((await send(png)).status).toBe(200);
      expect(await send(jpeg(2000))).toEqual({ status: 415, body: expect.objectContaining({ message: { photo: 'The file is not one of the allowed types.' } }) });
      expect((await send(Buffer.concat([png, Buffer.alloc(10_000)]))).status).toBe(413);
      const openapi = (await (await fetch(`${gateway.services}/openapi.json`)).json()) as { paths: Record<string, { post?: { summary: string } }> };
      expect(openapi.paths['/media-queue'].post?.summary).toContain('at most 10000 bytes');
    } finally {
      gateway.stop();
    }
  });

  it('when the client goes away in the middle of an upload, then nothing of the file is kept', async () => {
    const before = await queueContents();
    const boundary = 'cutoff';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const url = new URL(`${services()}/media-queue`);
    const upload = request(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demoToken}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(3_000_000) },
    });
    upload.on('error', () => undefined);
    upload.write(Buffer.concat([Buffer.from(head), jpeg(1_000_000)]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    upload.destroy();
    // The partial upload is removed, and no row was ever written for it.
    await eventually(async () => expect(await queueContents()).toEqual(before));
  });

  it('when bodies are read one at a time and a client stalls in the middle of its upload, then other uploads go on, and the stalled one completes when its client does', async () => {
    const gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { UPLOADS_READ_AT_ONCE: '1' });
    try {
      const boundary = 'stalled';
      const file = jpeg(600_000);
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const stalled = request(new URL(`${gateway.services}/media-queue`), {
        method: 'POST',
        headers: { Authorization: `Bearer ${demoToken}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + file.length + tail.length) },
      });
      const stalledAnswer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        stalled.on('response', (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        });
        stalled.on('error', reject);
      });
      stalled.write(Buffer.concat([head, file.subarray(0, 200_000)]));
      await new Promise((resolve) => setTimeout(resolve, 200));

      // Four more at once, each a turn after the other, while the first client sends nothing.
      const others = [1, 2, 3, 4].map((i) => jpeg(400_000 + i * 1_000));
      const answers = await Promise.all(
        others.map(async (content) => {
          const form = new FormData();
          form.append('photo', new Blob([content], { type: 'image/jpeg' }), 'photo.jpg');
          const response = await fetch(`${gateway.services}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${demoToken}` }, signal: AbortSignal.timeout(10_000) });
          return { status: response.status, body: (await response.json()) as { photo: { name: string } } };
        }),
      );
      const readBack = async (name: string) =>
        Buffer.from(await (await fetch(`${gateway.services}/media-queue/${name}`, { headers: { Authorization: `Bearer ${demoToken}` } })).arrayBuffer());
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).toBe(200);
        expect((await readBack(answer.body.photo.name)).equals(others[i])).toBe(true);
      }

      stalled.end(Buffer.concat([file.subarray(200_000), tail]));
      const answer = await stalledAnswer;
      expect(answer.status, answer.body).toBe(200);
      expect((await readBack(JSON.parse(answer.body).photo.name)).equals(file)).toBe(true);
    } finally {
      gateway.stop();
    }
  });

  it('when a user has used up the hourly upload quota, then further uploads are 429 JSON and nothing is kept', async () => {
    const uploaderId = 12;
    await addToWorld({ users: [{ id: uploaderId, username: 'uploader', websites: [{ website_id: DEMO.websiteId, role: 'user' }] }] });
    const gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, {}, false, true, { MEDIA_UPLOAD_QUOTA_BYTES_PER_HOUR: '10000' });
    try {
      const bearer = await token({ userId: uploaderId });
      const send = async (size: number) => {
        const form = new FormData();
        form.append('photo', new Blob([jpeg(size)]), 'photo.jpg');
        const response = await fetch(`${gateway.services}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${bearer}` } });
        return { status: response.status, body: (await response.json()) as { code?: number; message?: Record<string, string> } };
      };
      expect((await send(6_000)).status).toBe(200);
      const over = await send(6_000);
      expect(over.status).toBe(429);
      expect(over.body.code).toBe(429);
      expect(over.body.message?.photo).toMatch(/quota/);
      expect((await send(100)).status).toBe(200);
      expect(await dbQuery('SELECT count(*)::int AS n FROM media.files WHERE user_id = $1', [uploaderId])).toEqual([{ n: 2 }]);

      // Uploads sent side by side share the allowance: together they keep within it.
      const sideBySide = 13;
      await addToWorld({ users: [{ id: sideBySide, username: 'parallel-uploader', websites: [{ website_id: DEMO.websiteId, role: 'user' }] }] });
      const parallel = await token({ userId: sideBySide });
      const answers = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const form = new FormData();
          form.append('photo', new Blob([jpeg(3_000)]), 'photo.jpg');
          return (await fetch(`${gateway.services}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${parallel}` } })).status;
        }),
      );
      expect(answers.filter((status) => status === 429).length, JSON.stringify(answers)).toBeGreaterThan(0);
      expect(answers.every((status) => status === 200 || status === 429), JSON.stringify(answers)).toBe(true);
      const [{ bytes }] = await dbQuery<{ bytes: number }>('SELECT coalesce(sum(size), 0)::int AS bytes FROM media.files WHERE user_id = $1', [sideBySide]);
      expect(bytes).toBeLessThanOrEqual(10_000);
      expect(bytes).toBeGreaterThan(0);
    } finally {
      gateway.stop();
    }
  });
});
