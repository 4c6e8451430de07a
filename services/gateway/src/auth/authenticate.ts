import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../http-error.ts';
import { publicOrigin } from '../routes/context.ts';
import type { MethodName, MethodOptions, RestConfig } from '@rex/rest-config';
import type { Caller } from './caller.ts';

/** What an authentication method looks at. */
export type AuthRequest = {
  authorization: string | undefined;
  /** Query parameters (first value of each), for proj_id, scope and URL credentials. */
  query: Record<string, string | undefined>;
  resource: string;
  /** A search-index end-point (legacy configuration clients may search without proj_id). */
  search: boolean;
  httpMethod: string;
  secure: boolean;
  /** The complete URL as the client addressed it, for HMAC signatures. */
  url: string;
  /** Whether direct methods may take their credentials from the query string. */
  tokensInUrl: boolean;
};

/**
 * A method returns the caller, undefined when the credentials are not of its
 * shape (the next method is tried), or throws HttpError when they are of its
 * shape but wrong.
 */
export type Authenticator = (req: AuthRequest, options: MethodOptions) => Promise<Omit<Caller, 'options'> | undefined>;

function firstValues(query: Request['query']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

export function toAuthRequest(req: Request, resource: string, tokensInUrl: boolean, search = false): AuthRequest {
  return {
    authorization: req.get('authorization'),
    query: firstValues(req.query),
    resource,
    search,
    httpMethod: req.method,
    secure: req.secure,
    url: `${publicOrigin(req)}${req.originalUrl}`,
    tokensInUrl,
  };
}

/**
 * Tries the enabled methods in the configuration's order. A method that does
 * not allow plain HTTP is skipped on an insecure request, so such a request
 * ends as 401 like any other that nothing authenticates.
 */
export function authenticate(
  config: RestConfig,
  available: Partial<Record<MethodName, Authenticator>>,
  complete: (caller: Caller) => Promise<Caller> = async (caller) => caller,
) {
  const methods = config.methods.flatMap(({ name, options }) => {
    const authenticator = available[name];
    return authenticator ? [{ name, options, authenticator }] : [];
  });
  return (resource: string, search = false) =>
    async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
      try {
        const authRequest = toAuthRequest(req, resource, config.allow_auth_tokens_in_url, search);
        for (const method of methods) {
          if (!authRequest.secure && !method.options.allow_http) continue;
          const caller = await method.authenticator(authRequest, method.options);
          if (caller) {
            req.caller = await complete({ ...caller, options: method.options });
            next();
            return;
          }
        }
        throw new HttpError(401, 'Unable to authorise');
      } catch (error) {
        next(error);
      }
    };
}
