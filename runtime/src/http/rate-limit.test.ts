import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settableClock } from '../clock';
import { SANDBOX_JWT_SECRET } from '../config';
import { signDevToken } from '../dev-token';
import { startTestApp, type TestApp } from '../testing/test-app';
import { createRateLimiter } from './rate-limit';

describe('createRateLimiter', () => {
  it('allows a burst of perMinute, then refills continuously', () => {
    const clock = settableClock();
    const limiter = createRateLimiter({ perMinute: 60, clock });
    for (let i = 0; i < 60; i += 1) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    clock.advance(1_000);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('tells how long until the next request is allowed', () => {
    const limiter = createRateLimiter({ perMinute: 2, clock: settableClock() });
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });
});

describe('rate limiting over HTTP', () => {
  const clock = settableClock(new Date());
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '3' },
      clock,
      mount: (express) => {
        express.use(
          Router().get('/ping', (_req, res) => {
            res.json({ pong: true });
          }),
        );
      },
    });
  });
  afterAll(() => app.close());

  const ping = (token: string) => fetch(`${app.baseUrl}/ping`, { headers: { authorization: `Bearer ${token}` } });

  it('answers 429 with Retry-After once a subject used its allowance, per subject', async () => {
    const alice = await signDevToken({ sub: 'alice' }, SANDBOX_JWT_SECRET);
    const bob = await signDevToken({ sub: 'bob' }, SANDBOX_JWT_SECRET);
    for (let i = 0; i < 3; i += 1) expect((await ping(alice)).status).toBe(200);
    const limited = await ping(alice);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(limited.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await limited.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await ping(bob)).status).toBe(200);
    clock.advance(20_000);
    expect((await ping(alice)).status).toBe(200);
  });

  it('counts failed authentications against the IP address', async () => {
    for (let i = 0; i < 3; i += 1) expect((await ping('forged.token.value')).status).toBe(401);
    const limited = await ping('forged.token.value');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A valid token is limited by its own subject, not by the address that failed.
    expect((await ping(await signDevToken({ sub: 'carol' }, SANDBOX_JWT_SECRET))).status).toBe(200);
  });

  it('verifies expiry against the injected clock', async () => {
    const token = await signDevToken({ sub: 'dave', expiresIn: 120 }, SANDBOX_JWT_SECRET);
    expect((await ping(token)).status).toBe(200);
    clock.advance(180_000);
    const expired = await ping(token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'token_expired' });
  });
});
