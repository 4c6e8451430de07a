import type { Request, Response } from 'express';
import type { RestConfig } from '@rex/rest-config';

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

/** `methods`: what the requested path answers (its Allow header). */
function apply(res: Response, origin: string, methods: string[]): void {
  res.set('Access-Control-Allow-Origin', origin);
  if (origin !== '*') res.vary('Origin');
  res.set('Access-Control-Allow-Methods', methods.join(', '));
  res.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
}

export function createCors(config: RestConfig) {
  const byMethod = new Map(config.methods.map(({ name, options }) => [name, compile(options.allow_cors)]));
  return {
    /** After authentication: the headers the admitting method allows, none otherwise. */
    forCaller(req: Request, res: Response, methods: string[]): void {
      const option = req.caller && byMethod.get(req.caller.method);
      const origin = option === undefined ? undefined : allowedOrigin(option, req.get('origin'));
      if (origin) apply(res, origin, methods);
    },
    /**
     * Answers given before authentication (a pre-flight, which carries no
     * credentials, or a 405): allowed when any enabled method allows the origin.
     */
    beforeAuthentication(req: Request, res: Response, methods: string[]): void {
      const origins = [...byMethod.values()].map((option) => allowedOrigin(option, req.get('origin')));
      const origin = origins.includes('*') ? '*' : origins.find((value) => value !== undefined);
      if (origin) apply(res, origin, methods);
    },
  };
}

export type Cors = ReturnType<typeof createCors>;
