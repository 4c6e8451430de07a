import { hash, timingSafeEqual } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';

// Every call between rex services carries a grant, metadata `rex-grant` =
// `<expiry ms>.<mac>`, where mac is HMAC-SHA-256 (truncated to 128 bits,
// base64url) under the secret the services share, over the method path, the
// expiry and the bytes of the request message (the first message of a client
// stream). The server computes the same over the bytes it received, so a grant
// is good for that method and that message only, until it expires; reaching a
// service port is not enough to act as a caller (docs/decisions/0008).

const GRANT = 'rex-grant';
const MAC_LENGTH = 22;
/** The bytes of each received message, kept by the wrapped deserializer (a side table leaves the message's shape alone). */
const received = new WeakMap<object, Buffer>();
/** A client stream's grant, until its first message is checked against it. */
const pendingFirst = new WeakMap<object, { expires: string; mac: string; path: string; secret: CallSecret }>();

/** Longest validity of a grant: a call is signed as it starts, so this bounds replay only. */
export const GRANT_TTL_MS = 5 * 60_000;

export class GrantRefused extends Error {}

/**
 * The secret the services share, as HMAC-SHA-256's inner and outer padded
 * keys (RFC 2104). Computing the MAC with two one-shot hashes over them
 * costs a fraction of a crypto.Hmac object per call, which matters at
 * thousands of calls a second.
 */
export type CallSecret = { readonly inner: Buffer; readonly outer: Buffer };

const BLOCK = 64;

/** The shared secret from its configured text; refuses short ones. */
export function callSecret(text: string): CallSecret {
  if (Buffer.byteLength(text) < 32) throw new Error('INTERNAL_AUTH_SECRET must be at least 32 characters.');
  let key = Buffer.from(text);
  if (key.length > BLOCK) key = hash('sha256', key, 'buffer');
  const inner = Buffer.alloc(BLOCK, 0x36);
  const outer = Buffer.alloc(BLOCK, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i] ^= key[i];
    outer[i] ^= key[i];
  }
  return { inner, outer };
}

/** HMAC-SHA-256 of `parts` under the secret. */
export function hmacSha256(secret: CallSecret, parts: Buffer[]): Buffer {
  const inner = hash('sha256', Buffer.concat([secret.inner, ...parts]), 'buffer');
  return hash('sha256', Buffer.concat([secret.outer, inner]), 'buffer');
}

const macOf = (secret: CallSecret, path: string, expires: string, message: Buffer): string =>
  hmacSha256(secret, [Buffer.from(`${path} ${expires} `), message]).toString('base64url').slice(0, MAC_LENGTH);

/**
 * Client side: the metadata that grants a call of `path` whose request (or a
 * client stream's first message) serialises to `message`.
 */
export function grantMetadata(secret: CallSecret, path: string, message: Buffer): grpc.Metadata {
  const expires = String(Date.now() + GRANT_TTL_MS);
  const metadata = new grpc.Metadata();
  metadata.set(GRANT, `${expires}.${macOf(secret, path, expires, message)}`);
  return metadata;
}

/** The grant a call carries, once its expiry is checked. */
function grantOf(metadata: grpc.Metadata): { expires: string; mac: string } {
  const grant = metadata.get(GRANT)[0];
  if (typeof grant !== 'string') throw new GrantRefused('This service takes calls from rex services only.');
  const dot = grant.indexOf('.');
  const expires = grant.slice(0, dot);
  const mac = grant.slice(dot + 1);
  const expiresAt = Number(expires);
  if (dot < 1 || mac.length !== MAC_LENGTH) throw new GrantRefused('The call grant is not valid.');
  if (!(expiresAt > Date.now()) || expiresAt > Date.now() + GRANT_TTL_MS + 60_000) throw new GrantRefused('The call grant has expired.');
  return { expires, mac };
}

/** Checks that a grant was made for this method and this message. */
function checkMessage(secret: CallSecret, path: string, grant: { expires: string; mac: string }, message: unknown): void {
  const bytes = message && typeof message === 'object' ? received.get(message) : undefined;
  if (!bytes) throw new GrantRefused('The call grant does not match the message.');
  // Checked once: the entry goes now rather than with the message (weak entries cost every collection).
  received.delete(message as object);
  const expected = Buffer.from(macOf(secret, path, grant.expires, bytes));
  const given = Buffer.from(grant.mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new GrantRefused('The call grant is not valid for this message.');
}

const refusal = (error: unknown): Partial<grpc.StatusObject> => ({
  code: grpc.status.UNAUTHENTICATED,
  details: error instanceof GrantRefused ? error.message : 'The call grant is not valid.',
});

/**
 * A client stream's first message must be the one the grant signed; call this
 * with it before acting on it. Throws GrantRefused otherwise.
 */
export function checkFirstMessage(call: object, message: unknown): void {
  const pending = pendingFirst.get(call);
  if (!pending) throw new GrantRefused('The call grant does not match the message.');
  pendingFirst.delete(call);
  checkMessage(pending.secret, pending.path, pending, message);
}

/**
 * Server side: a service definition whose handlers refuse (UNAUTHENTICATED)
 * any call without a valid grant for the message received.
 */
export function requireGrants(
  secret: CallSecret,
  definition: grpc.ServiceDefinition,
  handlers: grpc.UntypedServiceImplementation,
): { definition: grpc.ServiceDefinition; handlers: grpc.UntypedServiceImplementation } {
  const guardedDefinition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  const guardedHandlers: grpc.UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const deserialize = method.requestDeserialize;
    guardedDefinition[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        const message = deserialize(bytes);
        if (message && typeof message === 'object') received.set(message, bytes);
        return message;
      },
    };
    const handler = handlers[name] as (...args: unknown[]) => void;
    if (!handler) continue;
    if (method.requestStream) {
      guardedHandlers[name] = (call: grpc.ServerReadableStream<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        try {
          pendingFirst.set(call, { ...grantOf(call.metadata), path: method.path, secret });
        } catch (error) {
          callback(refusal(error));
          return;
        }
        handler(call, callback);
      };
    } else if (method.responseStream) {
      guardedHandlers[name] = (call: grpc.ServerWritableStream<unknown, unknown>) => {
        try {
          checkMessage(secret, method.path, grantOf(call.metadata), call.request);
        } catch (error) {
          call.emit('error', refusal(error));
          return;
        }
        handler(call);
      };
    } else {
      guardedHandlers[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        try {
          checkMessage(secret, method.path, grantOf(call.metadata), call.request);
        } catch (error) {
          callback(refusal(error));
          return;
        }
        handler(call, callback);
      };
    }
  }
  return { definition: guardedDefinition, handlers: guardedHandlers };
}
