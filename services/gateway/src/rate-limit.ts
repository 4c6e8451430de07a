import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './http-error.ts';

export type RateLimitRule = { limit: number; window_seconds: number };

/**
 * Fixed-window request counting per key, in this gateway process (each
 * replica counts its own share). Over the limit: 429 with `Retry-After`.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly rule: RateLimitRule;
  private readonly sweeper: NodeJS.Timeout;

  constructor(rule: RateLimitRule) {
    this.rule = rule;
    this.sweeper = setInterval(() => this.sweep(), rule.window_seconds * 1000);
    this.sweeper.unref();
  }

  /** Counts one request; returns the seconds to wait when it is over the limit. */
  take(key: string, now = Date.now()): number | undefined {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.rule.window_seconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count > this.rule.limit ? Math.max(1, Math.ceil((window.resetAt - now) / 1000)) : undefined;
  }

  middleware(keyOf: (req: Request) => string | undefined) {
    return (req: Request, res: Response, next: NextFunction): void => {
      const key = keyOf(req);
      const wait = key === undefined ? undefined : this.take(key);
      if (wait === undefined) {
        next();
        return;
      }
      res.set('Retry-After', String(wait));
      next(new HttpError(429, `Too many requests; try again in ${wait} s.`));
    };
  }

  private sweep(now = Date.now()): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
