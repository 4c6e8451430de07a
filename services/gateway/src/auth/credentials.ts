import type { AuthRequest } from './authenticate.ts';
import { isRecordId } from '@rex/protos';

/** Header shapes of the direct and HMAC methods (the secret may itself contain colons). */
const SHAPES = {
  directClient: /^USER:([^:]+):SECRET:(.+)$/,
  directUser: /^USER_ID:([^:]*):WEBSITE_ID:([^:]*):SECRET:(.*?)(?::SCOPE:([^:]+))?$/,
  directWebsite: /^WEBSITE_ID:([^:]*):SECRET:(.*?)(?::SCOPE:([^:]+)(?::USER_ID:([^:]*))?)?$/,
  hmacClient: /^USER:([^:]+):HMAC:(.+)$/,
  hmacWebsite: /^WEBSITE_ID:([^:]*):HMAC:(.+)$/,
} as const;

export type Shape = keyof typeof SHAPES;

/** The header's parts when it has the method's shape. */
export function headerParts(req: AuthRequest, shape: Shape): (string | undefined)[] | undefined {
  const match = SHAPES[shape].exec(req.authorization?.trim() ?? '');
  return match ? match.slice(1) : undefined;
}

/** Query parameters holding credentials when `allow_auth_tokens_in_url` is on and all `names` are given. */
export function urlCredentials(req: AuthRequest, names: string[]): Record<string, string> | undefined {
  if (!req.tokensInUrl) return undefined;
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = req.query[name];
    if (value === undefined || value === '') return undefined;
    out[name] = value;
  }
  return out;
}

export const isDigits = isRecordId;

export const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
