import type { Request, Response } from 'express';
import type { RestConfig } from '@rex/rest-config';

const ALLOW_METHODS = 'GET, POST, DELETE, PUT, OPTIONS';
const ALLOW_HEADERS = 'Content-Type, Authorization';

/** A method's `allow_cors`: true (any origin), false, or a list of origin patterns (regular expressions). */
type CorsOption = boolean | string[];

function compile(option: CorsOption): boolean | RegExp[] {
  return Array.isArray(option) ? option.map((pattern) => new RegExp(pattern)) : option;
}

function allowedOrigin(option: boolean | RegExp[], origin: string | undefined): string | undefined {
  if (option === true) return '*';
  if (option === false || !origin) return undefined;
  return option.some((pattern) => pattern.test(origin)) ? origin : undefined;
}

function apply(res: Response, origin: string): void {
  res.set('Access-Control-Allow-Origin', origin);
  if (origin !== '*') res.vary('Origin');
  res.set('Access-Control-Allow-Methods', ALLOW_METHODS);
  res.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
}

export function createCors(config: RestConfig) {
  const byMethod = new Map(config.methods.map(({ name, options }) => [name, compile(options.allow_cors)]));
  return {
    /** After authentication: the headers the admitting method allows, none otherwise. */
    forCaller(req: Request, res: Response): void {
      const option = req.caller && byMethod.get(req.caller.method);
      const origin = option === undefined ? undefined : allowedOrigin(option, req.get('origin'));
      if (origin) apply(res, origin);
    },
    /** Pre-flight carries no credentials: allowed when any enabled method allows the origin. */
    forPreflight(req: Request, res: Response): void {
      const origins = [...byMethod.values()].map((option) => allowedOrigin(option, req.get('origin')));
      const origin = origins.includes('*') ? '*' : origins.find((value) => value !== undefined);
      if (origin) apply(res, origin);
    },
  };
}

export type Cors = ReturnType<typeof createCors>;
