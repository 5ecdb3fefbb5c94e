import type { GlobalPosition } from '@cropcover/eventstore';
import { SANDBOX_JWT_SECRET, signDevToken } from '@cropcover/runtime';
import { startTestApp, type TestApp } from '@cropcover/runtime/testing';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { honourConsistencyToken } from './consistency-token';

// The log has handed out positions up to 7.7; the read models hold everything up to there.
const newest: GlobalPosition = { commit: 7n, prepare: 7n };
const within = (position: GlobalPosition) =>
  position.commit < newest.commit || (position.commit === newest.commit && position.prepare <= newest.prepare);

let app: TestApp;
let authorization: string;
const waits: GlobalPosition[] = [];

beforeAll(async () => {
  authorization = `Bearer ${await signDevToken({ sub: 'u1' }, SANDBOX_JWT_SECRET)}`;
  // A wait for a position the read models never reach would last the whole (long) bound.
  const consistency = {
    waitFor: (position: GlobalPosition, timeoutMs: number) => {
      waits.push(position);
      return within(position)
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs));
    },
  };
  app = await startTestApp({
    mount: (express) => {
      const router = Router();
      router.use(honourConsistencyToken(consistency, 60_000, { mayHaveIssued: async (p) => within(p) }));
      router.get('/things', (_req, res) => {
        res.json({ ok: true });
      });
      express.use(router);
    },
  });
});

afterAll(() => app.close());

const read = (token: string) =>
  fetch(`${app.baseUrl}/things`, { headers: { authorization, 'consistency-token': token } });

describe('Consistency-Token', () => {
  it('waits for a position the log handed out, then reads', async () => {
    const response = await read('7.7');
    expect(response.status).toBe(200);
    expect(response.headers.get('consistency-status')).not.toBe('behind');
  });

  it('refuses at once, without waiting, a token for a position the log has not reached', async () => {
    waits.length = 0;
    const response = await read('99999999999999999999.99999999999999999999');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_consistency_token' });
    expect(waits).toEqual([]);
  }, 10_000);

  it('refuses a token that is not a position', async () => {
    const response = await read('yesterday');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_consistency_token' });
  });
});
