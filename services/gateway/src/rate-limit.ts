import type { NextFunction, Request, Response } from 'express';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { HttpError } from './http-error.ts';

export type RateLimitRule = { limit: number; window_seconds: number };

/**
 * Where request counts live. In-process by default (each gateway replica
 * counts its own share, so N replicas let N × the limit through); in Redis
 * when RATE_LIMIT_REDIS_URL is set, so every replica counts against one limit.
 * While Redis cannot be reached each replica falls back to counting in
 * process (an insurance limiter), so a Redis outage loosens the limit to
 * N × rather than failing requests.
 */
export type RateLimitStore = { redis?: Redis };

/** A connection for the counters; commands fail at once while it is down (the fallback counts instead). */
export function redisStore(url: string, onError: (error: Error) => void): RateLimitStore {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1_000, lazyConnect: false });
  redis.on('error', onError);
  return { redis };
}

/**
 * Fixed-window request counting per key (`name` separates the rules).
 * Over the limit: 429 with `Retry-After`.
 */
export class RateLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(name: string, rule: RateLimitRule, store: RateLimitStore = {}) {
    const options = { points: rule.limit, duration: rule.window_seconds, keyPrefix: `rex-rate-${name}` };
    this.limiter = store.redis
      ? new RateLimiterRedis({ ...options, storeClient: store.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  }

  /** Counts one request; resolves to the seconds to wait when it is over the limit. */
  async take(key: string): Promise<number | undefined> {
    try {
      await this.limiter.consume(key);
      return undefined;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      // The store failed and so did its fallback: count nothing rather than refuse everyone.
      return undefined;
    }
  }

  middleware(keyOf: (req: Request) => string | undefined) {
    return (req: Request, res: Response, next: NextFunction): void => {
      const key = keyOf(req);
      if (key === undefined) {
        next();
        return;
      }
      this.take(key).then((wait) => {
        if (wait === undefined) {
          next();
          return;
        }
        res.set('Retry-After', String(wait));
        next(new HttpError(429, `Too many requests; try again in ${wait} s.`));
      }, next);
    };
  }
}
