import type { Request } from 'express';
import { httpErrorFromGrpc } from '../grpc-errors.ts';

export const SERVICES_PATH = '/index.php/services';

export function servicesUrl(req: Request): string {
  return `${req.protocol}://${req.get('host')}${SERVICES_PATH}`;
}

/** Awaits a backend call, turning its gRPC failure into the HTTP error the client sees. */
export async function backend<T>(name: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw httpErrorFromGrpc(error, name) ?? error;
  }
}
