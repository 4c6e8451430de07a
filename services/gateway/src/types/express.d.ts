import type { Caller } from '../auth/caller.ts';

declare global {
  namespace Express {
    interface Request {
      /** Set by the authentication middleware. */
      caller?: Caller;
    }
  }
}
