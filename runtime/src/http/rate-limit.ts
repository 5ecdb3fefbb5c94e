import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Clock } from '../clock';
import { principalOf } from './principal';
import { ProblemError } from './problem';

// Token buckets per caller: `perMinute` requests in a burst, refilled continuously at the same rate.
// The buckets live in this process's memory: each API process limits on its own, so N replicas allow
// up to N × the limit. That is acceptable for a per-subject fairness limit and avoids a shared store
// on every request; a gateway in front can enforce a global limit if one is ever needed.

const WINDOW_MS = 60_000;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateLimiter {
  /** Takes one token for the key; when none is left, how many seconds until one is. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number };
  /** After authentication: limits each token subject. */
  readonly limitBySubject: RequestHandler;
  /**
   * Right after the authenticator: a request whose token was rejected has no subject, so it is counted
   * against its IP address; guessing tokens from one address is slowed down without making callers
   * that share an address (behind a gateway) share one limit.
   */
  readonly limitFailedAuthentication: ErrorRequestHandler;
}

export const createRateLimiter = ({ perMinute, clock }: { perMinute: number; clock: Clock }): RateLimiter => {
  const buckets = new Map<string, Bucket>();
  const refillPerMs = perMinute / WINDOW_MS;
  let lastSweep = clock.now().getTime();

  // A bucket untouched for a whole window is full again, so forgetting it changes nothing.
  const sweep = (now: number): void => {
    if (now - lastSweep < WINDOW_MS) return;
    lastSweep = now;
    for (const [key, bucket] of buckets) if (now - bucket.updatedAt >= WINDOW_MS) buckets.delete(key);
  };

  const take: RateLimiter['take'] = (key) => {
    const now = clock.now().getTime();
    sweep(now);
    const bucket = buckets.get(key) ?? { tokens: perMinute, updatedAt: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.updatedAt) * refillPerMs);
    bucket.updatedAt = now;
    buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
  };

  const enforce = (key: string): void => {
    const outcome = take(key);
    if (!outcome.allowed) throw ProblemError.tooManyRequests(outcome.retryAfterSeconds);
  };

  return {
    take,
    limitBySubject: (req, _res, next) => {
      enforce(`sub:${principalOf(req).sub}`);
      next();
    },
    limitFailedAuthentication: (error: unknown, req, _res, next) => {
      if (error instanceof ProblemError && error.status === 401) enforce(`ip:${req.ip ?? 'unknown'}`);
      next(error);
    },
  };
};
