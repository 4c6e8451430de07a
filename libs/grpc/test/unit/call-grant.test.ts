import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { recordsV1, type AuthContext, type RecordsServiceClient } from '@rex/protos';
import { CHANNEL_OPTIONS, ServiceClient } from '../../src/client.ts';
import { callSecret, grantMetadata, hmacSha256 } from '../../src/call-grant.ts';
import { startGrpcServer, type GrpcServer } from '../../src/server.ts';

const secret = callSecret('a-secret-the-services-share-0123456789');
const FORGED: AuthContext = { entity: 'ENTITY_USER' as const, websiteId: '1', userId: '1', scope: 'SCOPE_USER' as const, method: 'jwtUser', sharingWebsiteIds: [], siteRole: 1 };

let server: GrpcServer;
let address: string;

beforeAll(async () => {
  server = await startGrpcServer({
    secret,
    port: 0,
    services: [
      {
        name: 'records.v1.RecordsService',
        definition: recordsV1.RecordsService.service,
        handlers: {
          GetSample: (call: grpc.ServerUnaryCall<{ auth: { userId: string } }, unknown>, callback: grpc.sendUnaryData<unknown>) =>
            callback(null, { values: {}, version: `user ${call.request.auth.userId}` }),
        },
      },
    ],
  });
  address = `127.0.0.1:${server.port}`;
});

afterAll(() => server.server.forceShutdown());

/** A GetSample call made by hand, with the metadata given. */
function getSample(metadata: grpc.Metadata, auth = FORGED): Promise<{ error?: grpc.ServiceError; version?: string }> {
  const client = new recordsV1.RecordsService(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS) as RecordsServiceClient;
  return new Promise((resolve) => {
    client.GetSample({ auth, id: 1 }, metadata, { deadline: Date.now() + 5_000 }, (error, response) => {
      client.close();
      resolve(error ? { error } : { version: response?.version });
    });
  });
}

const GET_SAMPLE = recordsV1.RecordsService.service.GetSample;
const grantFor = (key: ReturnType<typeof callSecret>, message: object) => grantMetadata(key, GET_SAMPLE.path, GET_SAMPLE.requestSerialize(message));

describe('the MAC', () => {
  it('when computed from the padded keys, then it is HMAC-SHA-256 exactly, for short and long secrets', async () => {
    const { createHmac } = await import('node:crypto');
    for (const text of ['a-secret-the-services-share-0123456789', 'x'.repeat(100)]) {
      const parts = [Buffer.from('/records.v1.RecordsService/GetSample 1 '), Buffer.from([0, 1, 2, 255])];
      expect(hmacSha256(callSecret(text), parts).equals(createHmac('sha256', text).update(Buffer.concat(parts)).digest())).toBe(true);
    }
  });
});

describe('calls between services', () => {
  it('when a call carries no grant (a direct call with a forged caller), then UNAUTHENTICATED and the handler never runs', async () => {
    const { error } = await getSample(new grpc.Metadata());
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the grant is signed with another secret, then UNAUTHENTICATED', async () => {
    const { error } = await getSample(grantFor(callSecret('not-the-secret-the-services-share-xx'), { auth: FORGED, id: 1 }));
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when a valid grant comes with another message than the one it signed, then UNAUTHENTICATED', async () => {
    const { error } = await getSample(grantFor(secret, { auth: { ...FORGED, userId: '99' }, id: 1 }));
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when a service signs its call with the shared secret, then the handler answers it', async () => {
    const client = new ServiceClient(recordsV1.RecordsService, address, secret);
    expect(await client.unary<{ version: string }>('GetSample', { auth: FORGED, id: 1 }, 5_000)).toMatchObject({ version: 'user 1' });
    client.close();
  });
});
