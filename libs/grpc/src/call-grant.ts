import { hash, timingSafeEqual } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';

// Every call between rex services carries a grant, `<expiry ms>.<mac>`, where
// mac is HMAC-SHA-256 (truncated to 128 bits, base64url) under the secret the
// services share, over the method path, the expiry and the bytes of the request
// message (the first message of a client stream). The grant travels in front of
// those bytes as a length-delimited protobuf field that no rex message defines
// (GRANT_FIELD); the server takes it off, computes the same MAC over the bytes
// that follow and decodes only those, so a grant is good for that method and
// that message only, until it expires, and reaching a service port is not
// enough to act as a caller (docs/decisions/0008). In the message rather than
// in metadata, it costs a call no header to encode, send and parse.

/** The largest field number protobuf allows; no rex message uses it. */
const GRANT_FIELD = 536_870_911;
const MAC_LENGTH = 22;

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

/** A protobuf varint (numbers up to 2^53). */
function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** The key of the grant's field: its number and the length-delimited wire type. */
const GRANT_KEY = varint(GRANT_FIELD * 8 + 2);

/**
 * Client side: the bytes to send for a call of `path` whose request (or a
 * client stream's first message) serialises to `message`: the grant, then the message.
 */
export function granted(secret: CallSecret, path: string, message: Buffer): Buffer {
  const expires = String(Date.now() + GRANT_TTL_MS);
  const grant = Buffer.from(`${expires}.${macOf(secret, path, expires, message)}`);
  return Buffer.concat([GRANT_KEY, varint(grant.length), grant, message]);
}

/** The grant in front of `bytes` and where the message starts; undefined when they start with none. */
function readGrant(bytes: Buffer): { grant: string; messageAt: number } | undefined {
  if (bytes.length < GRANT_KEY.length || !GRANT_KEY.equals(bytes.subarray(0, GRANT_KEY.length))) return undefined;
  let at = GRANT_KEY.length;
  const length = bytes[at++];
  // A grant is a few dozen bytes: its length is one varint byte.
  if (length === undefined || length >= 0x80 || at + length > bytes.length) return undefined;
  return { grant: bytes.toString('latin1', at, at + length), messageAt: at + length };
}

/** The message bytes a valid grant for `path` signed; throws GrantRefused otherwise. */
function openGrant(secret: CallSecret, path: string, bytes: Buffer, read = readGrant(bytes)): Buffer {
  if (!read) throw new GrantRefused('This service takes calls from rex services only.');
  const dot = read.grant.indexOf('.');
  const expires = read.grant.slice(0, dot);
  const mac = read.grant.slice(dot + 1);
  const expiresAt = Number(expires);
  if (dot < 1 || mac.length !== MAC_LENGTH) throw new GrantRefused('The call grant is not valid.');
  if (!(expiresAt > Date.now()) || expiresAt > Date.now() + GRANT_TTL_MS + 60_000) throw new GrantRefused('The call grant has expired.');
  const message = bytes.subarray(read.messageAt);
  const expected = Buffer.from(macOf(secret, path, expires, message));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new GrantRefused('The call grant is not valid for this message.');
  return message;
}

/** What a request without a valid grant deserialises to: the handler is never given it. */
class Refused {
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

/** Client streams' first messages that came with a valid grant, until checked. */
const grantedFirst = new WeakSet<object>();

const refusal = (refused: Refused): Partial<grpc.StatusObject> => ({ code: grpc.status.UNAUTHENTICATED, details: refused.reason });

/**
 * A client stream's first message must be one a grant signed; call this with
 * it before acting on it (once). Throws GrantRefused otherwise.
 */
export function checkFirstMessage(message: unknown): void {
  if (message instanceof Refused) throw new GrantRefused(message.reason);
  if (!message || typeof message !== 'object' || !grantedFirst.has(message)) throw new GrantRefused('The call grant does not match the message.');
  grantedFirst.delete(message);
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
      requestDeserialize: method.requestStream
        ? // A client stream: only its first message carries a grant.
          (bytes: Buffer) => {
            const read = readGrant(bytes);
            if (!read) return deserialize(bytes);
            let message: unknown;
            try {
              message = deserialize(openGrant(secret, method.path, bytes, read));
            } catch (error) {
              if (error instanceof GrantRefused) return new Refused(error.message);
              throw error;
            }
            if (message && typeof message === 'object') grantedFirst.add(message);
            return message;
          }
        : (bytes: Buffer) => {
            let message: Buffer;
            try {
              message = openGrant(secret, method.path, bytes);
            } catch (error) {
              if (error instanceof GrantRefused) return new Refused(error.message);
              throw error;
            }
            return deserialize(message);
          },
    };
    const handler = handlers[name] as (...args: unknown[]) => void;
    if (!handler) continue;
    if (method.requestStream) {
      // The handler checks the first message it reads (checkFirstMessage).
      guardedHandlers[name] = handler;
    } else if (method.responseStream) {
      guardedHandlers[name] = (call: grpc.ServerWritableStream<unknown, unknown>) => {
        if (call.request instanceof Refused) {
          call.emit('error', refusal(call.request));
          return;
        }
        handler(call);
      };
    } else {
      guardedHandlers[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        if (call.request instanceof Refused) {
          callback(refusal(call.request));
          return;
        }
        handler(call, callback);
      };
    }
  }
  return { definition: guardedDefinition, handlers: guardedHandlers };
}
