import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import pg from 'pg';
import { freePort } from '@rex/db';
import { grpcServing } from '../scripts/suite.ts';
import { spawnService, startGateway, type ExtraGateway } from './support/gateway.ts';
import { jpeg } from './support/media.ts';
import { api, dbQuery, eventually, sampleSubmission, setUpWorld, token } from './support/world.ts';

// A report as long as a large download: every visible occurrence, many times over.
const MANY_ROWS = `<?xml version="1.0" encoding="UTF-8"?>
<report title="Many rows" description="Each visible occurrence repeated." table="occurrences">
  <query>SELECT #columns# FROM reports.occurrences o CROSS JOIN generate_series(1, 2000000) AS n WHERE #sharing_filter#</query>
  <columns>
    <column name="id" display="ID" sql="o.id" datatype="integer" />
    <column name="n" display="N" sql="n" datatype="integer" />
    <column name="padding" display="Padding" sql="repeat('x', 200)" datatype="text" />
  </columns>
</report>`;

const POOL = 3;
let reports: ChildProcess;
let gateway: ExtraGateway;

beforeAll(async () => {
  await setUpWorld();
  const library = mkdtempSync(join(tmpdir(), 'rex-library-'));
  mkdirSync(join(library, 'stalls'));
  writeFileSync(join(library, 'stalls', 'many_rows.xml'), MANY_ROWS);
  const port = await freePort();
  reports = spawnService('reports', {
    DATABASE_URL: inject('databaseUrl'),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(port),
    DB_POOL_MAX: String(POOL),
    PROJECTOR_ENABLED: 'false',
    REPORTS_LIBRARY_DIRS: library,
    REPORT_COUNT_TIMEOUT_MS: '200',
  });
  for (let i = 0; i < 300 && !(await grpcServing(`127.0.0.1:${port}`, 'reports.v1.ReportsService')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  gateway = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { REPORTS_ADDR: `127.0.0.1:${port}`, DB_POOL_MAX: '2' });
  const marker = `stall${Date.now()}`;
  const created = await api('POST', '/samples', { token: await token(), body: sampleSubmission({ location_name: marker }, { occurrences: [{ values: { taxa_taxon_list_id: 1 } }] }) });
  expect(created.status, created.text).toBe(201);
  await eventually(async () => expect((await dbQuery('SELECT 1 FROM reports.samples WHERE location_name = $1', [marker])).length).toBe(1));
});

afterAll(() => {
  gateway?.stop();
  reports?.kill('SIGKILL');
});

/** Starts a download, reads its first bytes, then goes away. */
function abortedDownload(url: string, bearer: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Authorization: `Bearer ${bearer}` } }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => (req.destroyed ? resolve() : reject(error)));
    req.end();
  });
}

const busyReaders = () =>
  dbQuery<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'rex-reports-read' AND state <> 'idle'");

describe('no caller can stall a service', () => {
  it('when ten report downloads are abandoned mid-stream, then their connections are released and reports keep answering', async () => {
    const bearer = await token();
    const url = `${gateway.services}/reports/stalls/many_rows.xml?format=csv&limit=1000000`;
    for (let i = 0; i < 10; i++) await abortedDownload(url, bearer);
    await eventually(async () => expect(Number((await busyReaders())[0].n)).toBe(0), 10_000);
    const page = await api('GET', `${gateway.services}/reports/stalls/many_rows.xml?limit=3&wantCount=0`, { token: bearer });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toHaveLength(3);
  });

  it('when a count takes longer than its limit, then the page comes without it instead of failing', async () => {
    const page = await api('GET', `${gateway.services}/reports/stalls/many_rows.xml?limit=2`, { token: await token() });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.count).toBe(0);
    expect(page.body.paging.next).toContain('offset=2');
  });

  it('when a JSON page larger than the maximum is asked for, then 400 names the limit', async () => {
    const page = await api('GET', `${gateway.services}/reports/stalls/many_rows.xml?limit=100001`, { token: await token() });
    expect(page.status).toBe(400);
    expect(page.body.message).toMatch(/at most 100000/);
  });
});

/** Writes `parts` to a raw connection with `gapMs` between them; answers what came back and when the connection closed. */
function trickle(url: string, parts: (string | Buffer)[], gapMs: number): Promise<{ status: number; body: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const next = (i: number) => {
      if (i >= parts.length || socket.destroyed) return;
      socket.write(parts[i]);
      timer = setTimeout(() => next(i + 1), gapMs);
    };
    socket.on('connect', () => next(0));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), closedAfterMs: Date.now() - started });
    });
    setTimeout(() => reject(new Error('the connection was held open')), 20_000).unref();
  });
}

describe('slow clients', () => {
  let slow: ExtraGateway;
  beforeAll(async () => {
    slow = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '800' });
  });
  afterAll(() => slow?.stop());

  it('when a client trickles its headers, then it gets a JSON 408 and the connection closes soon after the limit', async () => {
    const parts = ['GET /index.php/services/rest/samples HTTP/1.1\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
    const answer = await trickle(slow.url, parts, 200);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 408 });
    expect(answer.closedAfterMs).toBeLessThan(4_000);
  });

  it('when a client trickles a JSON body, then it gets a JSON 408 at the request limit', async () => {
    const bearer = await token();
    const body = JSON.stringify(sampleSubmission());
    const head = `POST /index.php/services/rest/samples HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${bearer}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answer = await trickle(slow.url, [head, ...body.match(/.{1,4}/g)!], 200);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 408, message: 'The request body did not arrive in time.' });
    expect(answer.closedAfterMs).toBeLessThan(4_000);
  });

  it('when an upload arrives more slowly than the request limit, then it is still taken (uploads have their own deadline)', async () => {
    const bearer = await token();
    const boundary = 'rexboundary';
    const file = jpeg(4096);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head = `POST /index.php/services/rest/media-queue HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${bearer}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const slices = Array.from({ length: 8 }, (_, i) => body.subarray((i * body.length) / 8, ((i + 1) * body.length) / 8));
    const answer = await trickle(slow.url, [head, ...slices], 250);
    expect(answer.status, answer.body).toBe(200);
  });
});

describe('a write that answers an error', () => {
  it('when a large submission runs past its deadline, then the client gets a 504 that says a retry with its Idempotency-Key is safe, and nothing is saved behind its back', async () => {
    const bearer = await token();
    const outcomes: number[] = [];
    for (const deadlineMs of [100, 300, 700]) {
      const slow = await startGateway({ authentication_methods: { jwtUser: { allow_http: true } } }, { GRPC_WRITE_DEADLINE_MS: String(deadlineMs) });
      try {
        const marker = `deadline-${Date.now()}-${deadlineMs}`;
        const body = sampleSubmission({ location_name: marker }, { occurrences: Array.from({ length: 4000 }, () => ({ values: { taxa_taxon_list_id: 1, comment: marker } })) });
        const response = await api('POST', `${slow.services}/samples`, { token: bearer, body });
        outcomes.push(response.status);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const [saved] = await dbQuery<{ samples: string; occurrences: string }>(
          `SELECT (SELECT count(*) FROM records.samples WHERE location_name = $1) AS samples, (SELECT count(*) FROM records.occurrences WHERE comment = $1) AS occurrences`,
          [marker],
        );
        if (response.status === 201) {
          expect(saved).toEqual({ samples: '1', occurrences: '4000' });
        } else {
          expect(response.status, response.text).toBe(504);
          expect(response.body.message).toMatch(/Idempotency-Key/);
          expect(saved, `deadline ${deadlineMs} ms`).toEqual({ samples: '0', occurrences: '0' });
        }
      } finally {
        slow.stop();
      }
    }
    expect(outcomes).toContain(504);
  }, 60_000);
});

describe('a client that goes away', () => {
  it('when the client of a submission disconnects while it is being written, then the write is cancelled in the database and nothing is saved', async () => {
    const bearer = await token();
    const marker = `gone-${Date.now()}`;
    const body = JSON.stringify(sampleSubmission({ location_name: marker }, { occurrences: Array.from({ length: 50 }, () => ({ values: { taxa_taxon_list_id: 1, comment: marker } })) }));
    const url = new URL(`${inject('gatewayUrl')}/index.php/services/rest/samples`);
    // The test holds a lock that the write's INSERT waits on, so the client surely leaves mid-write, however fast the machine.
    const holder = new pg.Client({ connectionString: inject('databaseUrl') });
    await holder.connect();
    // Writes waiting on the lock; records' own ANALYZE of the table (every second here) waits in another mode.
    const waitingInserts = async () =>
      Number(
        (
          await holder.query(
            `SELECT count(DISTINCT pid) AS n FROM pg_locks WHERE NOT granted AND relation = 'records.samples'::regclass AND mode = 'RowExclusiveLock'`,
          )
        ).rows[0].n,
      );
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE records.samples IN SHARE MODE');
      const req = httpRequest(url, { method: 'POST', headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } });
      let answered: number | undefined;
      req.on('error', () => undefined);
      req.on('response', (response) => (answered = response.statusCode));
      req.end(body);
      await eventually(async () => {
        // An answer before the write waits would make the rest meaningless: say which.
        if (answered !== undefined) throw new Error(`the submission was answered ${answered} before its write waited on the lock`);
        expect(await waitingInserts()).toBe(1);
      });
      req.destroy();
      await eventually(async () => expect(await waitingInserts()).toBe(0));
      expect(answered).toBeUndefined();
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const [saved] = await dbQuery<{ samples: string; occurrences: string }>(
      `SELECT (SELECT count(*) FROM records.samples WHERE location_name = $1) AS samples, (SELECT count(*) FROM records.occurrences WHERE comment = $1) AS occurrences`,
      [marker],
    );
    expect(saved).toEqual({ samples: '0', occurrences: '0' });
  }, 30_000);
});
