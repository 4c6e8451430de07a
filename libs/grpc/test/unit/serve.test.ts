import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '@rex/logger';
import { mediaV1, recordsV1, reportsV1, type MediaServiceHandlers, type RecordsServiceHandlers, type ReportsServiceHandlers } from '@rex/protos';
import { grpcClientDuration, grpcHandled, grpcInFlight, inSpan, serverSpan, startTracing, stopTracing, traceIds } from '@rex/telemetry';
import { callSecret, checkFirstMessage } from '../../src/call-grant.ts';
import { currentCall } from '../../src/call-scope.ts';
import { ServiceClient, forWaiter, isServiceError } from '../../src/client.ts';
import { decodeServiceError, notFound } from '../../src/errors.ts';
import type { DatabaseSupervisor } from '../../src/readiness.ts';
import { serveGrpc, type GrpcSettings, type ServedGrpc } from '../../src/serve.ts';
import { CallEnded, writeMessage } from '../../src/stream.ts';

const SECRET = 'a-secret-the-services-share-0123456789';
const settings: GrpcSettings = {
  INTERNAL_AUTH_SECRET: SECRET,
  GRPC_HOST: '127.0.0.1',
  GRPC_PORT: 0,
  GRPC_MAX_CONNECTION_AGE_MS: 300_000,
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: 900_000,
  SHUTDOWN_DELAY_MS: 0,
  SHUTDOWN_TIMEOUT_MS: 5_000,
};
const AUTH = { entity: 'ENTITY_USER' as const, websiteId: '1', userId: '7', scope: 'SCOPE_USER' as const, method: 'jwtUser', sharingWebsiteIds: [], siteRole: 1 };

/** A logger that keeps what it is told, by level. */
function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (_fields: object, message: string) => lines.push({ level, message });
  const logger = { info: at('info'), warn: at('warn'), error: at('error'), fatal: at('fatal'), debug: at('debug') } as unknown as Logger;
  return { logger, lines };
}

/** A database supervisor the test drives: the hooks serveGrpc gives it, and whether it was stopped. */
function fakeDatabase() {
  const state: { hooks?: Parameters<DatabaseSupervisor>[0]; stopped: boolean } = { stopped: false };
  const supervisor: DatabaseSupervisor = async (hooks) => {
    state.hooks = hooks;
    return { stop: () => (state.stopped = true) };
  };
  return { supervisor, state, setReady: (ready: boolean) => state.hooks!.setReady(ready), migrated: () => state.hooks!.onMigrated() };
}

/** grpc.health.v1 Check by raw call: SERVING is `08 01`. */
function serving(port: number, service: string): Promise<boolean> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const request = Buffer.concat([Buffer.from([0x0a, Buffer.byteLength(service)]), Buffer.from(service)]);
  return new Promise((resolve) => {
    client.makeUnaryRequest('/grpc.health.v1.Health/Check', (value: Buffer) => value, (value: Buffer) => value, request, { deadline: Date.now() + 2_000 }, (error, response) => {
      client.close();
      resolve(!error && !!response && response[0] === 0x08 && response[1] === 0x01);
    });
  });
}

async function handled(labels: Record<string, string>): Promise<number> {
  const metric = await grpcHandled.get();
  return metric.values.filter((value) => Object.entries(labels).every(([key, wanted]) => (value.labels as Record<string, unknown>)[key] === wanted)).reduce((sum, value) => sum + value.value, 0);
}

/** Calls of GetSample the client timed as ending with `code` (a status name). */
async function clientTimed(code: string): Promise<number> {
  return (await grpcClientDuration.get()).values
    .filter((value) => value.metricName === 'grpc_client_handling_seconds_count' && value.labels.grpc_method === 'GetSample' && value.labels.grpc_code === code)
    .reduce((sum, value) => sum + value.value, 0);
}

/** grpc_server_calls_in_flight of one method. */
async function inFlight(service: string, method: string): Promise<number> {
  const metric = await grpcInFlight.get();
  return metric.values.find((value) => value.labels.grpc_service === service && value.labels.grpc_method === method)?.value ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** A unary call whose HTTP client (its waiter) goes away 100 ms after it is made; settles with its error. */
async function cancelledByItsCaller(makeCall: () => Promise<unknown>): Promise<unknown> {
  let gone = false;
  const listeners: (() => void)[] = [];
  const waiter = { get gone() { return gone; }, onGone: (listener: () => void) => (listeners.push(listener), () => undefined) };
  const call = forWaiter(waiter, makeCall).catch((error: grpc.ServiceError) => error);
  await sleep(100);
  gone = true;
  for (const listener of listeners) listener();
  return call;
}

const served: ServedGrpc[] = [];
const clients: ServiceClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(served.splice(0).map((server) => server.stop()));
});

async function serve<S>(options: Omit<Parameters<typeof serveGrpc<S>>[0], 'settings' | 'logger'> & { settings?: Partial<GrpcSettings>; logger?: Logger }): Promise<ServedGrpc> {
  const server = await serveGrpc<S>({ ...options, settings: { ...settings, ...options.settings }, logger: options.logger ?? recordingLogger().logger });
  served.push(server);
  return server;
}

function clientOf(constructor: ConstructorParameters<typeof ServiceClient>[0], port: number): ServiceClient {
  const client = new ServiceClient(constructor, `127.0.0.1:${port}`, callSecret(SECRET));
  clients.push(client);
  return client;
}

describe('serveGrpc: names and answers', () => {
  it('when a method is called, then the service and method names in metrics and health come from the definition', async () => {
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: { GetSample: async (request) => ({ values: {}, version: `sample ${request.id}`, attributes: {} }) },
    });
    const labels = { grpc_service: 'records.v1.RecordsService', grpc_method: 'GetSample', grpc_code: 'OK' };
    const before = await handled(labels);
    const answer = await clientOf(recordsV1.RecordsService, server.port).unary<{ version: string }>('GetSample', { auth: AUTH, id: '12' }, 5_000);
    expect(answer.version).toBe('sample 12');
    expect(await handled(labels)).toBe(before + 1);
    expect(await inFlight('records.v1.RecordsService', 'GetSample')).toBe(0);
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(true);
  });

  it('when a call is made on a closed client, then it fails, and is counted and timed as UNAVAILABLE like any call that found no service', async () => {
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: { GetSample: async () => ({ values: {}, version: '1', attributes: {} }) },
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    client.close();
    const timed = async () =>
      (await grpcClientDuration.get()).values
        .filter((value) => value.metricName === 'grpc_client_handling_seconds_count' && value.labels.grpc_method === 'GetSample' && value.labels.grpc_code === 'UNAVAILABLE')
        .reduce((sum, value) => sum + value.value, 0);
    const before = await timed();
    const failed = await client.unary('GetSample', { auth: AUTH, id: '1' }, 5_000).catch((error: unknown) => error);
    expect(isServiceError(failed) && failed.code).toBe(grpc.status.UNAVAILABLE);
    let thrown: unknown;
    try {
      client.serverStream('GetSample', { auth: AUTH, id: '1' }, 5_000);
    } catch (error) {
      thrown = error;
    }
    expect(isServiceError(thrown) && thrown.code).toBe(grpc.status.UNAVAILABLE);
    expect(await timed()).toBe(before + 2);
  });

  it('when a call fails, then its error is a ServiceError with its status and no stack; errors made after it, and after a call that could not start, keep theirs', async () => {
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async () => {
          throw notFound('No such sample.');
        },
      },
    });
    const limit = Error.stackTraceLimit;
    const client = clientOf(recordsV1.RecordsService, server.port);
    const refused = (await client.unary('GetSample', { auth: AUTH, id: '1' }, 5_000).catch((error: unknown) => error)) as grpc.ServiceError;
    expect(isServiceError(refused)).toBe(true);
    expect([refused.code, refused.details, refused.message]).toEqual([grpc.status.NOT_FOUND, 'No such sample.', '5 NOT_FOUND: No such sample.']);
    expect(decodeServiceError(refused).fromService).toBe(true);
    expect(refused.stack).toBe('Error: 5 NOT_FOUND: No such sample.');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('later').stack!.split('\n').length).toBeGreaterThan(1);

    const closed = clientOf(recordsV1.RecordsService, server.port);
    closed.close();
    const unavailable = (await closed.unary('GetSample', { auth: AUTH, id: '1' }, 5_000).catch((error: unknown) => error)) as Error;
    expect(unavailable.stack!.split('\n').length).toBeGreaterThan(1);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('when a service answers bytes that are not its message, or no message, then the call fails INTERNAL or UNIMPLEMENTED and is timed so', async () => {
    // A server of the method's path answering each call with the messages the test gives it, as raw bytes.
    const raw = new grpc.Server();
    const answers: Buffer[][] = [[Buffer.from([0x0a, 0xff])], []];
    raw.register(
      recordsV1.RecordsService.service.GetSample.path,
      (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
        for (const message of answers.shift() ?? []) call.write(message);
        call.end();
      },
      (value: Buffer) => value,
      (value: Buffer) => value,
      'serverStream',
    );
    const port = await new Promise<number>((resolve, reject) => raw.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    try {
      const client = clientOf(recordsV1.RecordsService, port);
      const failed = () => client.unary('GetSample', { auth: AUTH, id: '1' }, 5_000).then(() => undefined, (error: grpc.ServiceError) => [error.code, error.details]);
      const internal = await clientTimed('INTERNAL');
      const unreadable = await failed();
      expect(unreadable?.[0]).toBe(grpc.status.INTERNAL);
      expect(unreadable?.[1]).toMatch(/^Response message parsing error: /);
      expect(await clientTimed('INTERNAL')).toBe(internal + 1);
      const unimplemented = await clientTimed('UNIMPLEMENTED');
      expect(await failed()).toEqual([grpc.status.UNIMPLEMENTED, 'No message received']);
      expect(await clientTimed('UNIMPLEMENTED')).toBe(unimplemented + 1);
    } finally {
      raw.forceShutdown();
    }
  });

  it('when a handler throws a DomainError, then the caller gets its status and message; anything else is INTERNAL, logged, with a generic message', async () => {
    const { logger, lines } = recordingLogger();
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async (request) => {
          if (request.id === '1') throw notFound('No such sample.');
          throw new Error('a detail the caller must not see');
        },
      },
      logger,
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    const refused = await client.unary('GetSample', { auth: AUTH, id: '1' }, 5_000).catch((error: grpc.ServiceError) => error);
    expect(decodeServiceError(refused as grpc.ServiceError)).toMatchObject({ code: grpc.status.NOT_FOUND, message: 'No such sample.', fromService: true });
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    const failed = (await client.unary('GetSample', { auth: AUTH, id: '2' }, 5_000).catch((error: grpc.ServiceError) => error)) as grpc.ServiceError;
    expect({ code: failed.code, details: failed.details }).toEqual({ code: grpc.status.INTERNAL, details: 'Internal error' });
    expect(lines).toContainEqual({ level: 'error', message: 'unhandled error in gRPC handler' });
    expect(await handled({ grpc_service: 'records.v1.RecordsService', grpc_method: 'GetSample', grpc_code: 'NOT_FOUND' })).toBeGreaterThan(0);
  });

  it('when a statement times out, or is cancelled because its call ran out of time, then the operator is warned; when its caller cancelled the call, then nothing is said above debug', async () => {
    const { logger, lines } = recordingLogger();
    const statementCancelled = () => Object.assign(new Error('canceling statement due to user request'), { code: '57014' });
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async (request) => {
          if (request.id === '1') throw statementCancelled();
          // As a scoped pool does: the call ends, its running statement is cancelled and fails.
          await new Promise<void>((resolve) => currentCall()!.onEnd(resolve));
          throw statementCancelled();
        },
      },
      logger,
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    const slow = (await client.unary('GetSample', { auth: AUTH, id: '1' }, 5_000).catch((error: grpc.ServiceError) => error)) as grpc.ServiceError;
    expect(slow.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(lines.filter((line) => line.level !== 'info')).toEqual([{ level: 'warn', message: 'call failed: the database is unavailable or too slow' }]);
    lines.length = 0;

    const call = cancelledByItsCaller(() => client.unary('GetSample', { auth: AUTH, id: '2' }, 5_000));
    expect(((await call) as grpc.ServiceError).code).toBe(grpc.status.CANCELLED);
    await until(() => lines.length > 0);
    expect(lines).toEqual([{ level: 'debug', message: 'call cancelled by its caller before its query finished' }]);
    lines.length = 0;

    const outOfTime = (await client.unary('GetSample', { auth: AUTH, id: '3' }, 300).catch((error: grpc.ServiceError) => error)) as grpc.ServiceError;
    expect(outOfTime.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await until(() => lines.length > 0);
    expect(lines).toEqual([{ level: 'warn', message: 'call failed: the database is unavailable or too slow' }]);
  });

  it('when a handler runs, then it runs in its call scope: the deadline is known and the end of a cancelled call is heard', async () => {
    let ended!: () => void;
    const endHeard = new Promise<void>((resolve) => (ended = resolve));
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async (request) => {
          const scope = currentCall()!;
          if (request.id === '1') return { values: {}, version: String(scope.deadline), attributes: {} };
          scope.onEnd(ended);
          await endHeard;
          return { values: {}, version: 'too late', attributes: {} };
        },
      },
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    const asked = Date.now();
    const { version } = await client.unary<{ version: string }>('GetSample', { auth: AUTH, id: '1' }, 5_000);
    expect(Number(version)).toBeGreaterThanOrEqual(asked + 4_000);
    expect(Number(version)).toBeLessThanOrEqual(Date.now() + 5_000);

    const call = cancelledByItsCaller(() => client.unary('GetSample', { auth: AUTH, id: '2' }, 5_000));
    await endHeard;
    expect(((await call) as grpc.ServiceError).code).toBe(grpc.status.CANCELLED);
  });
});

describe('serveGrpc: streams', () => {
  it('when a server-stream handler resolves, then the stream is ended and counted OK', async () => {
    const server = await serve<Pick<ReportsServiceHandlers, 'RunReport'>>({
      definition: reportsV1.ReportsService.service,
      handlers: {
        RunReport: async (_request, call) => {
          await writeMessage(call, { head: { count: 1, columns: ['id'] } });
          await writeMessage(call, { rows: { json: JSON.stringify([['1']]) } });
        },
      },
    });
    const labels = { grpc_service: 'reports.v1.ReportsService', grpc_method: 'RunReport', grpc_code: 'OK' };
    const before = await handled(labels);
    const stream = clientOf(reportsV1.ReportsService, server.port).serverStream<object>('RunReport', { auth: AUTH, path: 'x' }, 5_000);
    const messages: object[] = [];
    for await (const message of stream) messages.push(message);
    expect(messages).toHaveLength(2);
    await until(async () => (await handled(labels)) === before + 1);
    expect(await inFlight('reports.v1.ReportsService', 'RunReport')).toBe(0);
  });

  it('while calls are handled, they are in flight, by method; once answered, they are not', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async (request) => {
          await held;
          return { values: {}, version: request.id, attributes: {} };
        },
      },
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    const calls = [1, 2, 3].map((id) => client.unary('GetSample', { auth: AUTH, id: String(id) }, 5_000));
    await until(async () => (await inFlight('records.v1.RecordsService', 'GetSample')) === 3);
    answer();
    await Promise.all(calls);
    expect(await inFlight('records.v1.RecordsService', 'GetSample')).toBe(0);
  });

  it('when the client cancels a server stream, then the handler stops writing and releases what it holds, and nothing is logged as an error', async () => {
    const { logger, lines } = recordingLogger();
    let released = false;
    let written = 0;
    const server = await serve<Pick<ReportsServiceHandlers, 'RunReport'>>({
      definition: reportsV1.ReportsService.service,
      handlers: {
        RunReport: async (_request, call) => {
          try {
            for (;;) {
              await writeMessage(call, { rows: { json: JSON.stringify([['x'.repeat(1_000)]]) } });
              written++;
            }
          } finally {
            released = true;
          }
        },
      },
      logger,
    });
    const cancelled = { grpc_service: 'reports.v1.ReportsService', grpc_method: 'RunReport', grpc_code: 'CANCELLED' };
    const before = await handled(cancelled);
    const stream = clientOf(reportsV1.ReportsService, server.port).serverStream<object>('RunReport', { auth: AUTH, path: 'x' }, 5_000);
    stream.on('error', () => undefined);
    await new Promise((resolve) => stream.once('data', resolve));
    stream.cancel();
    await until(() => released);
    const after = written;
    await sleep(50);
    expect(written).toBe(after);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    await until(async () => (await handled(cancelled)) === before + 1);
    expect(await inFlight('reports.v1.ReportsService', 'RunReport')).toBe(0);
  });

  it('when a client stream comes, then its first message is checked against the grant; once the client cancels, the reads still to come fail', async () => {
    let readFailed: unknown;
    const server = await serve<Pick<MediaServiceHandlers, 'Upload'>>({
      definition: mediaV1.MediaService.service,
      handlers: {
        Upload: async (call) => {
          let size = 0;
          let first = true;
          // A slow reader: a cancel that comes meanwhile fails the reads still to come.
          await sleep(200);
          try {
            for await (const message of call) {
              if (first) checkFirstMessage(message);
              if (first && message.header?.filename === 'forged') checkFirstMessage(message);
              first = false;
              size += message.data?.length ?? 0;
            }
          } catch (error) {
            readFailed = error;
            throw error;
          }
          return { name: 'queued.jpg', contentType: 'image/jpeg', size, mediaType: 'Image:Local' };
        },
      },
    });
    const client = clientOf(mediaV1.MediaService, server.port);
    const upload = (filename: string, parts: Buffer[], end = true) =>
      new Promise<{ error: grpc.ServiceError | null; size?: string; stream: grpc.ClientWritableStream<object> }>((resolve) => {
        const stream = client.clientStream<object, { size: string }>('Upload', { header: { auth: AUTH, field: 'file', filename } }, 5_000, (error, response) =>
          resolve({ error, size: response?.size, stream }),
        );
        for (const data of parts) stream.write({ data });
        if (end) stream.end();
        else setTimeout(() => stream.cancel(), 100);
      });
    expect(await upload('a.jpg', [Buffer.alloc(10), Buffer.alloc(5)])).toMatchObject({ error: null, size: '15' });
    // The grant was for the first message only: checking another against it is refused.
    expect((await upload('forged', [])).error?.code).toBe(grpc.status.UNAUTHENTICATED);
    // A first message whose grant another secret made is refused.
    const stranger = new ServiceClient(mediaV1.MediaService, `127.0.0.1:${server.port}`, callSecret('not-the-secret-the-services-share-xx'));
    const refused = await new Promise<grpc.ServiceError | null>((resolve) => {
      const stream = stranger.clientStream<object, object>('Upload', { header: { auth: AUTH, field: 'file', filename: 'b.jpg' } }, 5_000, (error) => resolve(error));
      stream.end();
    });
    stranger.close();
    expect(refused?.code).toBe(grpc.status.UNAUTHENTICATED);
    readFailed = undefined;
    expect((await upload('cut.jpg', [Buffer.alloc(10)], false)).error?.code).toBe(grpc.status.CANCELLED);
    await until(() => readFailed !== undefined);
    expect(readFailed).toBeInstanceOf(CallEnded);
  });
});

describe('serveGrpc: readiness and jobs', () => {
  it('when the database supervisor says ready or not, then health follows it, and after stop it stays NOT_SERVING', async () => {
    const database = fakeDatabase();
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: { GetSample: async () => ({ values: {}, version: '1', attributes: {} }) },
      database: database.supervisor,
    });
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(false);
    expect(await serving(server.port, '')).toBe(true);
    database.setReady(true);
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(true);
    database.setReady(false);
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(false);
    database.setReady(true);
    let stopped = false;
    const stopping = served.pop()!.stop().then(() => (stopped = true));
    expect(database.state.stopped).toBe(true);
    database.setReady(true);
    // The server drains; its health may still be asked meanwhile on a connection already open, but never says SERVING.
    await stopping;
    expect(stopped).toBe(true);
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(false);
  });

  it('when there are jobs, then sweeps run only while ready and workers from the migration until the stop', async () => {
    const database = fakeDatabase();
    let sweeps = 0;
    const worker = { started: 0, stopped: 0 };
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: { GetSample: async () => ({ values: {}, version: '1', attributes: {} }) },
      database: database.supervisor,
      jobs: [
        { name: 'counting', everyMs: 10, run: async () => sweeps++ },
        { name: 'working', start: () => (worker.started++, { stop: async () => void worker.stopped++ }) },
      ],
    });
    await sleep(80);
    expect({ sweeps, worker }).toEqual({ sweeps: 0, worker: { started: 0, stopped: 0 } });
    database.migrated();
    database.setReady(true);
    await until(() => sweeps >= 3);
    expect(worker).toEqual({ started: 1, stopped: 0 });
    database.setReady(false);
    await sleep(20);
    const whileDown = sweeps;
    await sleep(80);
    expect(sweeps).toBe(whileDown);
    database.setReady(true);
    await until(() => sweeps > whileDown);
    await served.pop()!.stop();
    const afterStop = sweeps;
    await sleep(60);
    expect(sweeps).toBe(afterStop);
    expect(worker).toEqual({ started: 1, stopped: 1 });
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(false);
  });

  it('when a sweep fails, then the failure is logged by the job name and the next tick runs again', async () => {
    const { logger, lines } = recordingLogger();
    let runs = 0;
    await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: { GetSample: async () => ({ values: {}, version: '1', attributes: {} }) },
      jobs: [{ name: 'sweeping things', everyMs: 10, run: async () => Promise.reject(new Error(`failure ${++runs}`)) }],
      logger,
    });
    await until(() => runs >= 2);
    expect(lines).toContainEqual({ level: 'warn', message: 'sweeping things failed' });
  });
});

describe('serveGrpc: stop', () => {
  it('when stopped with a call in flight, then health says NOT_SERVING at once, closing runs, the call finishes, and only then release runs', async () => {
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered = false;
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async () => {
          entered = true;
          await gate;
          order.push('call finished');
          return { values: {}, version: 'in time', attributes: {} };
        },
      },
      closing: () => order.push('closing'),
      release: async () => void order.push('released'),
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    const call = client.unary<{ version: string }>('GetSample', { auth: AUTH, id: '1' }, 5_000);
    await until(() => entered);
    const stopped = served.pop()!.stop();
    expect(await serving(server.port, 'records.v1.RecordsService')).toBe(false);
    await sleep(50);
    expect(order).toEqual(['closing']);
    open();
    expect((await call).version).toBe('in time');
    await stopped;
    expect(order).toEqual(['closing', 'call finished', 'released']);
  });

  it('when a call outlasts SHUTDOWN_TIMEOUT_MS, then it is cut and the stop ends', async () => {
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: { GetSample: () => new Promise(() => undefined) },
      settings: { SHUTDOWN_TIMEOUT_MS: 200 },
    });
    const call = clientOf(recordsV1.RecordsService, server.port)
      .unary('GetSample', { auth: AUTH, id: '1' }, 10_000)
      .catch((error: grpc.ServiceError) => error);
    await sleep(50);
    const started = Date.now();
    await served.pop()!.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(((await call) as grpc.ServiceError).code).not.toBe(grpc.status.OK);
  });
});

describe('traced calls', () => {
  type Exporter = NonNullable<Parameters<typeof startTracing>[0]>;
  const exported: Parameters<Exporter['export']>[0] = [];

  beforeAll(async () => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_on');
    await startTracing({ export: (spans, done) => (exported.push(...spans), done({ code: 0 })), shutdown: async () => undefined });
  });
  afterAll(async () => {
    await stopTracing();
    vi.unstubAllEnvs();
  });

  it('when traced work calls a service whose handler fails, then the call is a client span and a server span of its trace, and the failure is logged naming the trace', async () => {
    const lines: { message: string; ids?: ReturnType<typeof traceIds> }[] = [];
    const at = (_fields: object, message: string) => lines.push({ message, ids: traceIds() });
    const logger = { info: at, warn: at, error: at, fatal: at, debug: at } as unknown as Logger;
    const server = await serve<Pick<RecordsServiceHandlers, 'GetSample'>>({
      definition: recordsV1.RecordsService.service,
      handlers: {
        GetSample: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error('a bug');
        },
      },
      logger,
    });
    const client = clientOf(recordsV1.RecordsService, server.port);
    const request = serverSpan(() => undefined, () => ({ name: 'GET /samples/:id', attributes: {} }), true)!;
    await inSpan(request, () => client.unary('GetSample', { auth: AUTH, id: '2' }, 5_000).catch(() => undefined));
    request.end();
    const traceId = request.spanContext().traceId;
    expect(lines.find((line) => line.message === 'unhandled error in gRPC handler')?.ids?.trace_id).toBe(traceId);

    await new Promise((resolve) => setTimeout(resolve, 250));
    const ofTrace = exported.filter((span) => span.spanContext().traceId === traceId);
    const call = ofTrace.find((span) => span.kind === 2 && span.name === 'records.v1.RecordsService/GetSample');
    const served = ofTrace.find((span) => span.kind === 1 && span.name === 'records.v1.RecordsService/GetSample');
    expect(call?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(served?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect([call?.status.code, served?.status.code, served?.attributes['rpc.grpc.status_code']]).toEqual([2, 2, grpc.status.INTERNAL]);
  });
});
