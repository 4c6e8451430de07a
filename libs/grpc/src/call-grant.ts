import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';

// Every call between rex services carries a grant: the method, an expiry and
// the SHA-256 of the request message (the first message of a client stream),
// signed with HMAC-SHA-256 under the secret the services share. A server acts
// only on calls whose grant matches what it received, so reaching a service
// port is not enough to act as a caller (docs/decisions/0008).

const GRANT = 'rex-grant';
const SIGNATURE = 'rex-grant-signature';
/** The digest of a received message, attached by the wrapped deserializer. */
const DIGEST = Symbol('rex.message-digest');
/** A client stream's expected first-message digest, kept on the call. */
const EXPECTED_FIRST = Symbol('rex.expected-first-digest');

/** Longest validity of a grant: a call is signed as it starts, so this bounds replay only. */
export const GRANT_TTL_MS = 5 * 60_000;

export class GrantRefused extends Error {}

const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sign = (secret: Buffer, grant: string) => createHmac('sha256', secret).update(grant).digest();

/** The shared secret from its configured text; refuses short ones. */
export function callSecret(text: string): Buffer {
  if (Buffer.byteLength(text) < 32) throw new Error('INTERNAL_AUTH_SECRET must be at least 32 characters.');
  return Buffer.from(text);
}

/** Client side: signs each call's first message into its metadata before the call starts. */
export function grantInterceptor(secret: Buffer): grpc.Interceptor {
  return (options, nextCall) => {
    const definition = options.method_definition;
    let pending: { metadata: grpc.Metadata; listener: grpc.Listener; next: (metadata: grpc.Metadata, listener: grpc.Listener) => void } | undefined;
    return new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        pending = { metadata, listener, next };
      },
      sendMessage(message, next) {
        if (pending) {
          const grant = `${definition.path} ${Date.now() + GRANT_TTL_MS} ${digestOf(definition.requestSerialize(message))}`;
          pending.metadata.set(GRANT, grant);
          pending.metadata.set(SIGNATURE, sign(secret, grant).toString('hex'));
          const { metadata, listener, next: start } = pending;
          pending = undefined;
          start(metadata, listener);
        }
        next(message);
      },
    });
  };
}

/** Checks a call's grant against the method and, when given, the digest of the message received. */
function checkGrant(secret: Buffer, metadata: grpc.Metadata, path: string): string {
  const grant = metadata.get(GRANT)[0];
  const signature = metadata.get(SIGNATURE)[0];
  if (typeof grant !== 'string' || typeof signature !== 'string') throw new GrantRefused('This service takes calls from rex services only.');
  const given = Buffer.from(signature, 'hex');
  const expected = sign(secret, grant);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new GrantRefused('The call grant is not valid.');
  const [method, expires, digest] = grant.split(' ');
  if (method !== path) throw new GrantRefused('The call grant is for another method.');
  const expiresAt = Number(expires);
  if (!(expiresAt > Date.now()) || expiresAt > Date.now() + GRANT_TTL_MS + 60_000) throw new GrantRefused('The call grant has expired.');
  return digest ?? '';
}

const refusal = (error: unknown): Partial<grpc.StatusObject> => ({
  code: grpc.status.UNAUTHENTICATED,
  details: error instanceof GrantRefused ? error.message : 'The call grant is not valid.',
});

function messageDigest(message: unknown): string | undefined {
  return message && typeof message === 'object' ? (message as { [DIGEST]?: string })[DIGEST] : undefined;
}

/**
 * A client stream's first message must be the one the grant signed; call this
 * with it before acting on it. Throws GrantRefused otherwise.
 */
export function checkFirstMessage(call: object, message: unknown): void {
  const expected = (call as { [EXPECTED_FIRST]?: string })[EXPECTED_FIRST];
  if (expected === undefined || messageDigest(message) !== expected) throw new GrantRefused('The call grant does not match the message.');
  delete (call as { [EXPECTED_FIRST]?: string })[EXPECTED_FIRST];
}

/**
 * Server side: a service definition whose handlers refuse (UNAUTHENTICATED)
 * any call without a valid grant for the message received.
 */
export function requireGrants(
  secret: Buffer,
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
        if (message && typeof message === 'object') Object.defineProperty(message, DIGEST, { value: digestOf(bytes) });
        return message;
      },
    };
    const handler = handlers[name] as (...args: unknown[]) => void;
    if (!handler) continue;
    if (method.requestStream) {
      guardedHandlers[name] = (call: grpc.ServerReadableStream<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        try {
          Object.defineProperty(call, EXPECTED_FIRST, { value: checkGrant(secret, call.metadata, method.path), configurable: true, writable: true });
        } catch (error) {
          callback(refusal(error));
          return;
        }
        handler(call, callback);
      };
    } else if (method.responseStream) {
      guardedHandlers[name] = (call: grpc.ServerWritableStream<unknown, unknown>) => {
        try {
          if (checkGrant(secret, call.metadata, method.path) !== messageDigest(call.request)) throw new GrantRefused('The call grant does not match the message.');
        } catch (error) {
          call.emit('error', refusal(error));
          return;
        }
        handler(call);
      };
    } else {
      guardedHandlers[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        try {
          if (checkGrant(secret, call.metadata, method.path) !== messageDigest(call.request)) throw new GrantRefused('The call grant does not match the message.');
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
