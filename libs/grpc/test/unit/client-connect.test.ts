import { afterEach, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { mediaV1, recordsV1, type AuthContext } from '@rex/protos';
import { createServer } from 'node:net';
import { freePort } from '@rex/db';
import { CONNECTION_WAIT_MS, ServiceClient, isServiceError } from '../../src/client.ts';
import { callSecret } from '../../src/call-grant.ts';
import { startGrpcServer, type GrpcServer } from '../../src/server.ts';

const secret = callSecret('a-secret-the-services-share-0123456789');
const AUTH: AuthContext = { entity: 'ENTITY_USER', websiteId: '1', userId: '1', scope: 'SCOPE_USER', method: 'jwtUser', sharingWebsiteIds: [], siteRole: 1 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const started: { servers: GrpcServer[]; clients: ServiceClient[] } = { servers: [], clients: [] };
afterEach(async () => {
  started.clients.splice(0).forEach((client) => client.close());
  await Promise.all(started.servers.splice(0).map((server) => server.drain(0)));
});

async function serve(port: number): Promise<GrpcServer> {
  const server = await startGrpcServer({
    secret,
    port,
    services: [
      {
        name: 'records.v1.RecordsService',
        definition: recordsV1.RecordsService.service,
        handlers: { GetSample: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { version: '1' }) },
      },
      {
        name: 'media.v1.MediaService',
        definition: mediaV1.MediaService.service,
        handlers: {
          Download: (call: grpc.ServerWritableStream<unknown, unknown>) => {
            call.write({ data: Buffer.from('a file') });
            call.end();
          },
          Upload: (call: grpc.ServerReadableStream<{ data?: Buffer }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
            const received: Buffer[] = [];
            call.on('data', (message: { data?: Buffer }) => message.data && received.push(message.data));
            call.on('end', () => callback(null, { name: Buffer.concat(received).toString() }));
          },
        },
      },
    ],
  });
  started.servers.push(server);
  return server;
}

function client(port: number, of: typeof recordsV1.RecordsService | typeof mediaV1.MediaService = recordsV1.RecordsService): ServiceClient {
  const made = new ServiceClient(of, `127.0.0.1:${port}`, secret);
  started.clients.push(made);
  return made;
}

const getSample = (of: ServiceClient, deadlineMs = 5_000) => of.unary<{ version: string }>('GetSample', { auth: AUTH, id: '1' }, deadlineMs);

/** A download's bytes, or its failure as a unary call's. */
const download = (of: ServiceClient, deadlineMs = 5_000) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = of.serverStream<{ data?: Buffer }>('Download', { name: 'a-file' }, deadlineMs);
    stream.on('data', (chunk: { data?: Buffer }) => chunk.data && chunks.push(chunk.data));
    stream.on('error', reject);
    stream.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });

/** An upload of `text` in two messages; the name the service gives back. */
const upload = (of: ServiceClient, text: string, deadlineMs = 5_000) =>
  new Promise<string>((resolve, reject) => {
    const stream = of.clientStream<object, { name: string }>('Upload', { header: { filename: 'a.jpg' } }, deadlineMs, (error, file) => (error ? reject(error) : resolve(file!.name)));
    stream.write({ data: Buffer.from(text.slice(0, 3)) });
    stream.write({ data: Buffer.from(text.slice(3)) });
    stream.end();
  });

/** The code a call failed with, and how long it took. */
async function failure(call: () => Promise<unknown>): Promise<{ code: grpc.status; ms: number }> {
  const began = Date.now();
  try {
    await call();
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { code: error.code, ms: Date.now() - began };
  }
  throw new Error('The call was answered.');
}

/** Waits, at most `ms`, until the client's channel is in `state`. */
async function reaches(of: ServiceClient, state: grpc.connectivityState, ms: number): Promise<grpc.connectivityState> {
  for (const until = Date.now() + ms; of.connectivity() !== state && Date.now() < until; ) await sleep(10);
  return of.connectivity();
}

/** A service that went away with the client in TRANSIENT_FAILURE, its attempts now at their longest apart. */
async function goneAWhile(port: number, service: typeof recordsV1.RecordsService | typeof mediaV1.MediaService = recordsV1.RecordsService): Promise<ServiceClient> {
  const server = await serve(port);
  const of = client(port, service);
  expect(await reaches(of, grpc.connectivityState.READY, 3_000)).toBe(grpc.connectivityState.READY);
  await server.drain(0);
  started.servers.splice(started.servers.indexOf(server), 1);
  expect(await reaches(of, grpc.connectivityState.TRANSIENT_FAILURE, 3_000)).toBe(grpc.connectivityState.TRANSIENT_FAILURE);
  await sleep(1_500);
  return of;
}

describe("a service client's connection", () => {
  it('when a client is made for a service that is up, then it connects before any call is made', async () => {
    const server = await serve(0);
    const of = client(server.port);
    expect(of.connectivity()).not.toBe(grpc.connectivityState.IDLE);
    expect(await reaches(of, grpc.connectivityState.READY, 3_000)).toBe(grpc.connectivityState.READY);
  });

  it('when the service comes up after the client was made, then the first call made once it is there is answered', async () => {
    const port = await freePort();
    const of = client(port);
    expect(await reaches(of, grpc.connectivityState.TRANSIENT_FAILURE, 3_000)).toBe(grpc.connectivityState.TRANSIENT_FAILURE);
    await serve(port);
    expect(await getSample(of)).toMatchObject({ version: '1' });
  });

  it('when a service that went away is back, then a call made while the client is still between attempts waits for the next one and is answered', async () => {
    const port = await freePort();
    const of = await goneAWhile(port);
    await serve(port);
    expect(of.connectivity()).toBe(grpc.connectivityState.TRANSIENT_FAILURE);
    expect(await getSample(of)).toMatchObject({ version: '1' });
  });

  it('when a service that went away is back, then streams started while the client is still between attempts wait for the next one and are served', async () => {
    const port = await freePort();
    const of = await goneAWhile(port, mediaV1.MediaService);
    await serve(port);
    expect(of.connectivity()).toBe(grpc.connectivityState.TRANSIENT_FAILURE);
    expect(await Promise.all([download(of), upload(of, 'uploaded')])).toEqual(['a file', 'uploaded']);
  });

  it('when a service keeps refusing connections, then the client tries it again within a call\'s wait every time', async () => {
    const attempts: number[] = [];
    const refusing = createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      client((refusing.address() as { port: number }).port);
      // The waits grow 200, 320, 512 ms, ... to the longest, which the later gaps reach.
      for (const until = Date.now() + 9_000; attempts.length < 10 && Date.now() < until; ) await sleep(20);
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
    expect(attempts).toHaveLength(10);
    const gaps = attempts.slice(1).map((at, index) => at - attempts[index]);
    expect(Math.max(...gaps)).toBeLessThan(CONNECTION_WAIT_MS);
  }, 15_000);

  it('when the service is still gone, then streams fail UNAVAILABLE after the wait for a connection, long before their deadline', async () => {
    const port = await freePort();
    const of = await goneAWhile(port, mediaV1.MediaService);
    const began = Date.now();
    const failures = await Promise.all([failure(() => download(of, 10_000)), failure(() => upload(of, 'uploaded', 10_000))]);
    expect(failures.map(({ code }) => code)).toEqual([grpc.status.UNAVAILABLE, grpc.status.UNAVAILABLE]);
    expect(Date.now() - began).toBeLessThan(CONNECTION_WAIT_MS + 2_000);
  });

  it('when the service is still gone, then a call fails UNAVAILABLE after the wait for a connection, long before its deadline', async () => {
    const port = await freePort();
    const of = await goneAWhile(port);
    const { code, ms } = await failure(() => getSample(of, 10_000));
    expect(code).toBe(grpc.status.UNAVAILABLE);
    expect(ms).toBeLessThan(CONNECTION_WAIT_MS + 2_000);
  });

  it('when the call has less time than the wait, then it waits half of its time and fails UNAVAILABLE, not out of time', async () => {
    const port = await freePort();
    const of = await goneAWhile(port);
    const { code, ms } = await failure(() => getSample(of, 400));
    expect(code).toBe(grpc.status.UNAVAILABLE);
    expect(ms).toBeGreaterThanOrEqual(190);
  });
});
