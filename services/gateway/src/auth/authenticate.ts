import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../http-error.ts';
import type { MethodName, RestConfig } from '../rest-config.ts';
import type { Caller } from './caller.ts';

/** What an authentication method looks at. */
export type AuthRequest = {
  authorization: string | undefined;
  scope: string | undefined;
  resource: string;
  secure: boolean;
};

/**
 * A method returns the caller, undefined when the credentials are not of its
 * shape (the next method is tried), or throws HttpError when they are of its
 * shape but wrong.
 */
export type Authenticator = (req: AuthRequest) => Promise<Caller | undefined>;

/**
 * Tries the enabled methods in the configuration's order. A method that does
 * not allow plain HTTP is skipped on an insecure request, so such a request
 * ends as 401 like any other that nothing authenticates.
 */
export function authenticate(config: RestConfig, available: Partial<Record<MethodName, Authenticator>>) {
  const methods = config.methods.flatMap(({ name, options }) => {
    const authenticator = available[name];
    return authenticator ? [{ name, allowHttp: options.allow_http, authenticator }] : [];
  });
  return (resource: string) =>
    async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
      try {
        const scope = typeof req.query.scope === 'string' ? req.query.scope : undefined;
        const authRequest: AuthRequest = { authorization: req.get('authorization'), scope, resource, secure: req.secure };
        for (const method of methods) {
          if (!authRequest.secure && !method.allowHttp) continue;
          const caller = await method.authenticator(authRequest);
          if (caller) {
            req.caller = caller;
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
