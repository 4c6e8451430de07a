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

/** The request's own URL as the client addressed it (see publicOrigin). */
export const requestUrl = (req: Request): URL => new URL(`${publicOrigin(req)}${req.originalUrl}`);

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
