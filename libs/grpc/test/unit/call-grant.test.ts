import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { recordsV1, type AuthContext } from '@rex/protos';
import { CHANNEL_OPTIONS, ServiceClient } from '../../src/client.ts';
import { callSecret, granted, hmacSha256 } from '../../src/call-grant.ts';
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

const GET_SAMPLE = recordsV1.RecordsService.service.GetSample;

/** A GetSample call made by hand: `bytes` are what goes on the wire, `metadata` with them. */
function getSample(bytes: Buffer, metadata = new grpc.Metadata()): Promise<{ error?: grpc.ServiceError; version?: string }> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
  return new Promise((resolve) => {
    client.makeUnaryRequest(GET_SAMPLE.path, (wire: Buffer) => wire, GET_SAMPLE.responseDeserialize, bytes, metadata, { deadline: Date.now() + 5_000 }, (error, response) => {
      client.close();
      resolve(error ? { error } : { version: (response as { version?: string })?.version });
    });
  });
}

const request = (auth = FORGED) => GET_SAMPLE.requestSerialize({ auth, id: 1 });
/** The bytes a grant under `key` makes of `signed`, with `sent` in place of the message it signed. */
const grantedAs = (key: ReturnType<typeof callSecret>, signed: Buffer, sent: Buffer = signed) =>
  Buffer.concat([granted(key, GET_SAMPLE.path, signed).subarray(0, -signed.length || undefined), sent]);

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
    const { error } = await getSample(request());
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the grant is signed with another secret, then UNAUTHENTICATED', async () => {
    const { error } = await getSample(grantedAs(callSecret('not-the-secret-the-services-share-xx'), request()));
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when a valid grant comes with another message than the one it signed, then UNAUTHENTICATED', async () => {
    const { error } = await getSample(grantedAs(secret, request(), request({ ...FORGED, userId: '99' })));
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when a valid grant is for another method, then UNAUTHENTICATED', async () => {
    const other = Buffer.concat([granted(secret, recordsV1.RecordsService.service.DeleteSample.path, request()).subarray(0, -request().length), request()]);
    const { error } = await getSample(other);
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the grant has expired, or runs further than a grant may, then UNAUTHENTICATED', async () => {
    const message = request();
    for (const expires of [Date.now() - 1_000, Date.now() + 60 * 60_000]) {
      const grant = Buffer.from(`${expires}.${hmacSha256(secret, [Buffer.from(`${GET_SAMPLE.path} ${expires} `), message]).toString('base64url').slice(0, 22)}`);
      const key = granted(secret, GET_SAMPLE.path, message).subarray(0, 5);
      const { error } = await getSample(Buffer.concat([key, Buffer.from([grant.length]), grant, message]));
      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
      expect(error?.details).toBe('The call grant has expired.');
    }
  });

  it('when the grant is sent in metadata instead of the message, then UNAUTHENTICATED', async () => {
    const wire = granted(secret, GET_SAMPLE.path, request());
    const metadata = new grpc.Metadata();
    metadata.set('rex-grant', wire.subarray(6, -request().length).toString());
    const { error } = await getSample(request(), metadata);
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when a service signs its call with the shared secret, then the handler answers it', async () => {
    const client = new ServiceClient(recordsV1.RecordsService, address, secret);
    expect(await client.unary<{ version: string }>('GetSample', { auth: FORGED, id: 1 }, 5_000)).toMatchObject({ version: 'user 1' });
    client.close();
  });

  it('when a granted request is sent, then its grant is a field no message defines, so any protobuf decoder still reads the message', () => {
    const message = request();
    const decoded = GET_SAMPLE.requestDeserialize(granted(secret, GET_SAMPLE.path, message)) as { auth: { userId: string }; id: string };
    expect(decoded.auth.userId).toBe('1');
    expect(String(decoded.id)).toBe('1');
  });
});
