import { afterEach, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { recordsV1, type AuthContext } from '@rex/protos';
import { createServer } from 'node:net';
import { ServiceClient } from '../../src/client.ts';
import { callSecret } from '../../src/call-grant.ts';
import { startGrpcServer, type GrpcServer } from '../../src/server.ts';

const secret = callSecret('a-secret-the-services-share-0123456789');
const AUTH: AuthContext = { entity: 'ENTITY_USER' as const, websiteId: '1', userId: '1', scope: 'SCOPE_USER' as const, method: 'jwtUser', sharingWebsiteIds: [], siteRole: 1 };

/** A port nothing listens on (taken from the system, then given back). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const started: { server?: GrpcServer; client?: ServiceClient } = {};
afterEach(() => {
  started.client?.close();
  started.server?.server.forceShutdown();
});

const serve = (port: number) =>
  startGrpcServer({
    secret,
    port,
    services: [
      {
        name: 'records.v1.RecordsService',
        definition: recordsV1.RecordsService.service,
        handlers: { GetSample: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { values: {}, version: '1' }) },
      },
    ],
  });

/** Waits, at most `ms`, until the client's channel is READY; the states it went through. */
async function readyWithin(client: ServiceClient, ms: number): Promise<grpc.connectivityState[]> {
  const seen = [client.connectivity()];
  const until = Date.now() + ms;
  while (client.connectivity() !== grpc.connectivityState.READY && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (seen.at(-1) !== client.connectivity()) seen.push(client.connectivity());
  }
  return seen;
}

describe("a service client's connection", () => {
  it('when a client is made for a service that is up, then it connects before any call is made', async () => {
    started.server = await serve(0);
    started.client = new ServiceClient(recordsV1.RecordsService, `127.0.0.1:${started.server.port}`, secret);
    expect(started.client.connectivity()).not.toBe(grpc.connectivityState.IDLE);
    await readyWithin(started.client, 3_000);
    expect(started.client.connectivity()).toBe(grpc.connectivityState.READY);
  });

  it('when the service comes up after the client was made, then the client connects once it is there, still before any call, and the first call is answered', async () => {
    const port = await freePort();
    started.client = new ServiceClient(recordsV1.RecordsService, `127.0.0.1:${port}`, secret);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started.client.connectivity()).toBe(grpc.connectivityState.TRANSIENT_FAILURE);
    started.server = await serve(port);
    const states = await readyWithin(started.client, 5_000);
    expect(states.at(-1)).toBe(grpc.connectivityState.READY);
    expect(await started.client.unary<{ version: string }>('GetSample', { auth: AUTH, id: 1 }, 5_000)).toMatchObject({ version: '1' });
  });
});
