import type { Request } from 'express';
import { httpErrorFromGrpc } from '../grpc-errors.ts';

export const SERVICES_PATH = '/index.php/services';

/** The app setting holding PUBLIC_BASE_URL, when configured. */
export const PUBLIC_BASE = 'rex public base url';

/**
 * Where clients reach the API, for every link the gateway writes: the
 * configured PUBLIC_BASE_URL, else the request's own scheme and Host header
 * (the scheme from X-Forwarded-Proto only through TRUSTED_PROXIES).
 */
export function publicOrigin(req: Request): string {
  const configured = req.app.get(PUBLIC_BASE) as string | undefined;
  return configured ?? `${req.protocol}://${req.get('host')}`;
}

/** Query parameters that carry a secret: never written into a link. */
export const SECRET_PARAMETERS = ['secret', 'auth_token', 'token', 'password'];

/**
 * The API's own query parameters on every resource: who the caller is and in what scope (read by
 * authentication) and the answer's format. None of them is a list filter or a report parameter;
 * all but the secret are carried into the links the API writes.
 */
export const CARRIED_PARAMETERS = ['proj_id', 'format', 'user', 'user_id', 'website_id', 'scope'];
export const API_PARAMETERS = [...CARRIED_PARAMETERS, 'secret'];

/**
 * The request's own URL as the client addressed it (see publicOrigin), for
 * the links built from it: secrets given in the query string are left out,
 * so a link can be logged, cached or shared.
 */
export function requestUrl(req: Request): URL {
  const url = new URL(`${publicOrigin(req)}${req.originalUrl}`);
  for (const name of SECRET_PARAMETERS) url.searchParams.delete(name);
  return url;
}

export function servicesUrl(req: Request): string {
  return `${publicOrigin(req)}${SERVICES_PATH}`;
}

/** Awaits a backend call, turning its gRPC failure into the HTTP error the client sees. */
export async function backend<T>(name: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw httpErrorFromGrpc(error, name) ?? error;
  }
}
