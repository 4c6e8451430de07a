import { createHash, createHmac, randomBytes } from 'node:crypto';

// Messages are signed as the Standard Webhooks specification says
// (https://www.standardwebhooks.com), so receivers can check them with its libraries.

const SECRET_PREFIX = 'whsec_';

/** A new subscription secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the secret's bytes. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The headers of one delivery: `webhook-signature` holds a signature per
 * secret given (the current one, and during a rotation's overlap the old one).
 */
export function webhookHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}

/** The id of a subscription's message for one feed entry: the same on every attempt and replay, so receivers can drop repeats. */
export const messageId = (subscriptionId: string, cursor: string): string =>
  `msg_${createHash('sha256').update(`${subscriptionId}\0${cursor}`).digest('base64url').slice(0, 27)}`;
