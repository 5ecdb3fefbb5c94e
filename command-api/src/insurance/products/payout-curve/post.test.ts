import type { TermSheet } from '@cropcover/contracts';
import { routerOf, SANDBOX_JWT_SECRET, settableClock, signDevToken } from '@cropcover/runtime';
import { startTestApp, type TestApp } from '@cropcover/runtime/testing';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandApiDeps } from '../../../command-api-deps';
import { refusalToProblem } from '../../../refusal-to-problem';
import { payoutCurveRoute } from './post';

// TERM-SHEETS.md §5.1 on the real HTTP stack: the route answers the curve, refuses a bad request as the
// validate route does (400 for its shape, 422 for a sheet's rules), and touches nothing but the clock: its
// dependencies are a proxy that records every other one it reads, so "stores nothing" is checked, not
// assumed.

const KHARIF: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'Kharif deficit rainfall',
  season: { from: '06-01', to: '09-30' },
  amounts: { unit: 'minor', currency: 'INR', sum_insured_minor: 3_000_000 },
  covers: [
    {
      peril: 'drought',
      index: 'phase_rainfall_dekad_capped_mm',
      reading: 'rainfall_mm',
      limit: 2_400_000,
      base_rate: 0.08,
      exposure: 'season',
      phases: [
        {
          id: 'establishment',
          window: { from: '06-01', to: '06-30' },
          blocks: { by: 'dekad', cap: 60 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 100, exit: 40 } },
          limit: 600_000,
          settle: 'window_closed',
        },
        {
          id: 'vegetative',
          window: { from: '07-01', to: '08-10' },
          blocks: { by: 'dekad', cap: 60 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 150, exit: 60 } },
          limit: 900_000,
          settle: 'window_closed',
        },
        {
          id: 'flowering',
          window: { from: '08-11', to: '09-30' },
          blocks: { by: 'dekad', cap: 60 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 160, exit: 40 } },
          limit: 1_200_000,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

const PATH = '/insurance/products/payout-curve';
let app: TestApp;
let insurer: string;
const touched: string[] = [];
const clock = settableClock('2026-03-15T08:00:00.000Z');
const deps = new Proxy({} as CommandApiDeps, {
  get: (_target, name) => {
    if (name === 'clock') return clock;
    touched.push(String(name));
    return undefined;
  },
});

beforeAll(async () => {
  insurer = `Bearer ${await signDevToken({ sub: 'designer', roles: ['insurer'], org: 'org-1' }, SANDBOX_JWT_SECRET)}`;
  app = await startTestApp({
    mount: (express) => {
      const router = Router();
      router.use(routerOf([payoutCurveRoute], deps));
      express.use(router);
      express.use(refusalToProblem);
    },
  });
});

afterAll(() => app.close());

const post = async (body: unknown, authorization = insurer) => {
  const response = await fetch(`${app.baseUrl}${PATH}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

const undeclared = () => app.logs.filter((line) => String(line.msg).includes('declaration does not list'));

describe('POST /insurance/products/payout-curve', () => {
  it('answers what every phase reading X pays, and the cover within its limit', async () => {
    const { status, body } = await post({ sheet: KHARIF, peril: 'drought', from: 0, to: 200, points: 5 });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      peril: 'drought',
      index: 'phase_rainfall_dekad_capped_mm',
      term_start: '2026-06-01',
      term_end: '2026-09-30',
      currency: 'INR',
      sum_insured: 30_000,
    });
    const at100 = body.points.find((point: any) => point.index_value === 100);
    // establishment 0; vegetative 900,000 × 50/90 = 500,000; flowering 1,200,000 × 60/120 = 600,000.
    expect(at100).toEqual({
      index_value: 100,
      phases: [
        { phase: 'establishment', severity: 0, amount_due: 0 },
        { phase: 'vegetative', severity: 0.555556, amount_due: 5000 },
        { phase: 'flowering', severity: 0.5, amount_due: 6000 },
      ],
      cover: { severity: 0.458333, amount_due: 11_000, payout: 11_000 },
    });
    // 600,000 + 900,000 + 1,200,000 > the cover's 2,400,000 (G21).
    expect(body.points[0].cover).toEqual({ severity: 1, amount_due: 24_000, payout: 24_000 });
    expect(touched).toEqual([]);
  });

  it('answers one phase alone', async () => {
    const { status, body } = await post({
      sheet: KHARIF,
      peril: 'drought',
      phase: 'flowering',
      from: 40,
      to: 160,
      points: 3,
    });
    expect(status).toBe(200);
    expect(body.phase).toBe('flowering');
    expect(body.points.map((point: any) => [point.index_value, point.cover.amount_due])).toEqual([
      [40, 12_000],
      [100, 6000],
      [160, 0],
    ]);
  });

  it('refuses a request it cannot draw with 400, naming the field, and a sheet breaking a rule with 422', async () => {
    const valid = { sheet: KHARIF, peril: 'drought', from: 0, to: 200, points: 5 };
    const refusals = [
      [{ ...valid, from: 200, to: 200 }, 'to'],
      [{ ...valid, points: 1 }, 'points'],
      [{ ...valid, points: 1001 }, 'points'],
      [{ ...valid, peril: 'flood' }, 'peril'],
      [{ ...valid, phase: 'harvest' }, 'phase'],
      [{ ...valid, from: 0.1234567 }, 'from'],
      [{ ...valid, term_start: '2026-06-01' }, 'term_end'],
    ] as const;
    for (const [body, path] of refusals) {
      const refused = await post(body);
      expect(refused.status, path).toBe(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path })] });
    }
    const reversed = structuredClone(KHARIF) as any;
    reversed.covers[0].phases[0].payout.linear = { direction: 'below', trigger: 40, exit: 100 };
    const invalid = await post({ ...valid, sheet: reversed });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({
      code: 'invalid_term_sheet',
      errors: [expect.objectContaining({ code: 'trigger_exit_order' })],
    });
    const offSeason = await post({ ...valid, term_start: '2026-06-02', term_end: '2026-09-30' });
    expect(offSeason.status).toBe(422);
    expect(offSeason.body.code).toBe('term_not_product_season');
    expect(undeclared()).toEqual([]);
    expect(touched).toEqual([]);
  });

  it('is for product designers: insurers and admins', async () => {
    const farmer = `Bearer ${await signDevToken({ sub: 'f1', roles: ['farmer'], org: 'org-1' }, SANDBOX_JWT_SECRET)}`;
    expect((await post({ sheet: KHARIF, peril: 'drought', from: 0, to: 1, points: 2 }, farmer)).status).toBe(403);
  });
});
