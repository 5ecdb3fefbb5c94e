import { type CommandContext, toNewEvent } from '@cropcover/application';
import type { TermSheet } from '@cropcover/contracts';
import { indexSourceStream } from '@cropcover/domain';
import { fieldSourceRegistered, gridSourceRegistered } from '@cropcover/domain/testing';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import {
  createKysely,
  createLogger,
  createPool,
  endPool,
  routerOf,
  SANDBOX_JWT_SECRET,
  settableClock,
  signDevToken,
} from '@cropcover/runtime';
import { createTestDatabase, startTestApp, type TestApp, type TestDatabase } from '@cropcover/runtime/testing';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandApiDeps } from '../../../command-api-deps';
import { refusalToProblem } from '../../../refusal-to-problem';
import { requestProductBacktestRoute } from './post';

// TERM-SHEETS.md §5.1 on the real HTTP stack, event store and read store: a backtest asked for is recorded
// as a queued job with its sheet frozen; every bad request is refused with its code and records nothing.

const NOW = new Date('2026-11-28T08:00:00.000Z');
const context: CommandContext = {
  principal: { sub: 'feed', organizationId: 'org-data', roles: ['data_provider'] },
  actor: { subject: 'feed', organizationId: 'org-data', isAdmin: false, roles: ['data_provider'] },
  requestId: 'request-1',
  correlationId: 'correlation-1',
  now: NOW,
};

const SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'June dry spell',
  season: { from: '06-01', to: '06-10' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 1_000_000 },
  covers: [
    {
      peril: 'drought',
      index: 'rain_sum',
      reading: 'rainfall_mm',
      limit: 1_000_000,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'june',
          window: { from: '06-01', to: '06-10' },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 50, exit: 0 } },
          limit: 1_000_000,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

const CELL = { source_id: 'chirps', location: '-1.25,36.75' };
const VALID = { sheet: SHEET, locations: [CELL], seasons: { from: 1996, to: 2025 } };

describe('POST /insurance/products/backtest', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let db: Kysely<ReadModels>;
  let eventStore: EventStore;
  let app: TestApp;
  let insurer: string;

  beforeAll(async () => {
    database = await createTestDatabase('product_backtest_route');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    db = createKysely<ReadModels>(pool);
    await migrateEventStore(pool);
    await migrateReadModels(db);
    eventStore = createPostgresEventStore({ pool });
    for (const [id, registered] of [
      ['chirps', gridSourceRegistered],
      ['modis', fieldSourceRegistered],
    ] as const) {
      const event = { ...registered, data: { ...registered.data, source_id: id } };
      await eventStore.append(indexSourceStream(id), [toNewEvent(event, context)], 'no_stream');
    }
    const deps = { eventStore, db, clock: settableClock(NOW) } as unknown as CommandApiDeps;
    insurer = `Bearer ${await signDevToken({ sub: 'designer', roles: ['insurer'], org: 'org-1' }, SANDBOX_JWT_SECRET)}`;
    app = await startTestApp({
      mount: (express) => {
        const router = Router();
        router.use(routerOf([requestProductBacktestRoute], deps));
        express.use(router);
        express.use(refusalToProblem);
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await eventStore?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const post = async (body: unknown, authorization = insurer) => {
    const response = await fetch(`${app.baseUrl}/insurance/products/backtest`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: (await response.json()) as Record<string, any>,
    };
  };
  const requests = async () => (await db.selectFrom('product_backtest_requests').selectAll().execute()).length;
  const undeclared = () => app.logs.filter((line) => String(line.msg).includes('declaration does not list'));

  it('queues the job with the sheet, seasons and each location’s source frozen', async () => {
    const { status, location, body } = await post({
      ...VALID,
      outcomes: [{ location: CELL.location, season: 2009, loss_ratio: 0.62 }],
      loss_threshold: 0.3,
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({
      status: 'queued',
      product: null,
      perils: ['drought'],
      season: { from: '06-01', to: '06-10' },
      seasons: { from: 1996, to: 2025 },
      currency: 'USD',
      result: null,
    });
    expect(location).toBe(`/insurance/products/backtests/${body.job_id}`);
    const [row] = await db.selectFrom('product_backtest_requests').selectAll().execute();
    expect(row).toMatchObject({
      organization_id: 'org-1',
      sheet: SHEET,
      locations: [{ ...CELL, kind: 'grid', index: 'rainfall_mm', series: '-1.25,36.75' }],
      basis: { loss_threshold: 0.3, outcomes: [{ location: CELL.location, season: 2009, loss_ratio: 0.62 }] },
    });
  });

  const { season: _, ...seasonless } = SHEET;
  const refusals: [string, unknown, number, string][] = [
    ['sheet and product both', { ...VALID, product: { product_id: 'kharif' } }, 400, 'validation_failed'],
    ['a location twice', { ...VALID, locations: [CELL, CELL] }, 400, 'validation_failed'],
    ['outcomes without a threshold', { ...VALID, outcomes: [] }, 400, 'validation_failed'],
    [
      'an outcome of a location not asked',
      { ...VALID, outcomes: [{ location: 'elsewhere', season: 2000, loss_ratio: 0.1 }], loss_threshold: 0.3 },
      400,
      'validation_failed',
    ],
    [
      'a product not registered',
      { ...VALID, sheet: undefined, product: { product_id: 'nope' } },
      404,
      'product_not_found',
    ],
    [
      'a source not registered',
      { ...VALID, locations: [{ source_id: 'nope', location: 'x' }] },
      404,
      'source_not_found',
    ],
    [
      'a source of another index',
      { ...VALID, locations: [{ source_id: 'modis', location: 'farm/field' }] },
      422,
      'source_index_mismatch',
    ],
    [
      'a location not of its source',
      { ...VALID, locations: [{ source_id: 'chirps', location: 'KE-NBO' }] },
      422,
      'unknown_location',
    ],
    ['a season not over', { ...VALID, seasons: { from: 2000, to: 2027 } }, 422, 'seasons_not_past'],
    ['a sheet without a season', { ...VALID, sheet: seasonless }, 422, 'season_missing'],
    ['a peril the sheet lacks', { ...VALID, perils: ['flood'] }, 422, 'peril_not_in_product'],
    [
      'a sheet breaking its rules',
      {
        ...VALID,
        sheet: {
          ...SHEET,
          covers: [
            {
              ...SHEET.covers[0]!,
              phases: [
                {
                  ...SHEET.covers[0]!.phases[0]!,
                  payout: { linear: { direction: 'below', trigger: 50, exit: 60 } },
                },
              ],
            },
          ],
        },
      },
      422,
      'invalid_term_sheet',
    ],
  ];

  it.each(refusals)('refuses %s, recording nothing', async (_case, body, status, code) => {
    const before = await requests();
    const answer = await post(body);
    expect([answer.status, answer.body.code]).toEqual([status, code]);
    expect(await requests()).toBe(before);
    expect(undeclared()).toEqual([]);
  });

  it('is the insurer’s: an auditor is refused, recording nothing', async () => {
    const auditor = `Bearer ${await signDevToken({ sub: 'audit', roles: ['auditor'], org: 'org-1' }, SANDBOX_JWT_SECRET)}`;
    const before = await requests();
    expect((await post(VALID, auditor)).status).toBe(403);
    expect(await requests()).toBe(before);
  });
});
