// What a component test needs to run one service in its own process: a fresh
// database, the service's settings as its environment would give them, a typed
// client signed as the gateway signs, and the clean-up of all three.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { afterAll, expect, inject, vi } from 'vitest';
import { parseEnv, type z } from '@rex/config';
import { createDatabase, dropDatabase } from '@rex/db';
import { callSecret, decodeServiceError, ServiceClient, type ServedGrpc } from '@rex/grpc';
import { createLogger, type Logger } from '@rex/logger';
import type { AuthContext } from '@rex/protos';
import type {} from './database-server.ts';
import { grpcServing } from '../../scripts/readiness.ts';

export const SECRET = randomBytes(24).toString('hex');

/** What this file's tests set up, undone after them in reverse order (clients, servers, then databases), each whatever the others do. */
const cleanUps: (() => unknown)[] = [];
afterAll(async () => {
  const failures: unknown[] = [];
  for (const cleanUp of cleanUps.reverse()) await Promise.resolve().then(cleanUp).catch((error: unknown) => failures.push(error));
  if (failures.length) throw new AggregateError(failures, 'cleaning up after the component tests failed');
});

/** A temporary directory of this file's own, removed after its tests. */
export function temporaryDirectory(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rex-component-${name}-`));
  cleanUps.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A database of this test file's own, dropped after its tests. */
export async function freshDatabase(service: string): Promise<string> {
  const server = inject('databaseServerUrl');
  const name = `rex_component_${service}_${process.pid}_${Date.now()}`;
  const url = await createDatabase(server, name);
  cleanUps.push(() => dropDatabase(server, name));
  return url;
}

/** A service's settings as its entrypoint reads them, on a free port, with the suite's secret and no drain delay. */
export function settings<S extends z.ZodType>(schema: S, env: Record<string, string>): Readonly<z.infer<S>> {
  return parseEnv(schema, { GRPC_PORT: '0', INTERNAL_AUTH_SECRET: SECRET, SHUTDOWN_DELAY_MS: '0', LOG_LEVEL: 'silent', ...env });
}

export const silentLogger = (service: string): Logger => createLogger(service, 'silent');

/**
 * Serves a service for this file's tests, once it is ready — by default once its
 * gRPC health says SERVING (its migrations ran) — and stops it (draining) after them.
 */
export async function serve(
  service: string,
  start: () => Promise<ServedGrpc>,
  ready: (port: number) => Promise<boolean> = (port) => grpcServing(`127.0.0.1:${port}`, service),
): Promise<ServedGrpc> {
  const served = await start();
  cleanUps.push(() => served.stop());
  await vi.waitFor(
    async () => {
      if (!(await ready(served.port))) throw new Error(`${service || 'the service'} is not ready`);
    },
    { timeout: 20_000, interval: 50 },
  );
  return served;
}

/** The unary methods of a generated client type, as promises of their responses. */
export type Unary<C> = {
  [M in keyof C as M extends Capitalize<M & string> ? M : never]: C[M] extends (argument: infer Q, callback: grpc.requestCallback<infer R>) => grpc.ClientUnaryCall
    ? (request: Q) => Promise<R>
    : never;
};

/**
 * A typed client of the served service (`C`: its generated client type), calling
 * as the gateway does: signed, with a deadline. `raw` makes streaming calls.
 */
export function clientOf<C>(definition: ConstructorParameters<typeof ServiceClient>[0], served: ServedGrpc): Unary<C> & { raw: ServiceClient } {
  const raw = new ServiceClient(definition, `127.0.0.1:${served.port}`, callSecret(SECRET));
  cleanUps.push(() => raw.close());
  const call = (method: string) => (request: object) => raw.unary(method, request, 10_000);
  return new Proxy({ raw } as Unary<C> & { raw: ServiceClient }, {
    get: (target, name) => (name === 'raw' ? target.raw : typeof name === 'string' ? call(name) : undefined),
  });
}

/** What a call that failed carries: its gRPC code, the reason the gateway maps and the fields at fault. */
export async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error as grpc.ServiceError,
  );
  return decodeServiceError(error);
}

/** A signed-in user of a website, as the gateway describes callers to services. */
export function userOf(websiteId: number, userId: number, extra: Partial<AuthContext> = {}): AuthContext {
  return { entity: 'ENTITY_USER', websiteId: String(websiteId), userId: String(userId), scope: 'SCOPE_USER', method: 'jwtUser', sharingWebsiteIds: [], siteRole: 1, ...extra };
}
