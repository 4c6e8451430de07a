import { HttpError } from '../http-error.ts';

export type JwtPayload = Record<string, unknown> & { iss?: unknown; exp?: unknown };

/** The token of an `Authorization: Bearer <token>` header (prefix in any case), if that is its shape. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Reads a token's payload before verification, to find the issuer whose key
 * verifies it. Not three parts → 401; a payload that is not JSON or has no
 * `iss` → 400, as the existing API answers.
 */
export function peekPayload(token: string): JwtPayload & { iss: string } {
  const parts = token.split('.');
  if (parts.length !== 3) throw new HttpError(401, 'Unable to authorise');
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    throw new HttpError(400, 'The token payload could not be decoded.');
  }
  if (!payload || typeof payload !== 'object' || typeof (payload as JwtPayload).iss !== 'string') {
    throw new HttpError(400, 'The token payload has no iss claim.');
  }
  return payload as JwtPayload & { iss: string };
}
