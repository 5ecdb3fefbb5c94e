import { createKysely, createLogger, createPool, endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateReadModels } from '../migrations/migrate-read-models';
import type { ReadModels } from '../read-models';
import { climatologyJobs, finishClimatology, loadClimatologyRequest, recordClimatologyRequest } from './climatologies';
import { claimLeasedJob, failLeasedRun, type JobLease, type LeasedJobTables, renewJobLease } from './leased-jobs';
import { finishBacktest, portfolioBacktestJobs, recordBacktestRequest } from './portfolio-backtests';
import { finishProductBacktest, productBacktestJobs, recordProductBacktestRequest } from './product-backtests';

// The lease every kind of job runs under: the oldest job without a live lease is claimed, one claimer
// gets each, an expired lease is claimed again by another, and only the lease's holder renews or ends it.

const T0 = new Date('2026-11-28T12:00:00.000Z');
const LEASE_MS = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const FAILURE = { code: 'test_failed', detail: 'failed in a test' };

interface Kind {
  readonly kind: string;
  readonly tables: LeasedJobTables;
  readonly request: (db: Kysely<ReadModels>, jobId: string, requestedAt: Date) => Promise<void>;
  /** Records a success the kind's way, with what it writes beside the run. */
  readonly succeed: (db: Kysely<ReadModels>, jobId: string, leaseId: string, now: Date) => Promise<void>;
}

const kinds: readonly Kind[] = [
  {
    kind: 'portfolio backtest',
    tables: portfolioBacktestJobs,
    request: (db, jobId, requestedAt) =>
      recordBacktestRequest(db, {
        job_id: jobId,
        programme_id: 'programme-1',
        organization_id: 'org-1',
        seasons: 3,
        as_of: '2026-11-01',
        perils: null,
        apply_treaties: false,
        requested_at: requestedAt,
      }),
    succeed: (db, jobId, leaseId, now) => finishBacktest(db, jobId, leaseId, { seasons: [] }, now),
  },
  {
    kind: 'climatology',
    tables: climatologyJobs,
    request: (db, jobId, requestedAt) =>
      recordClimatologyRequest(db, {
        job_id: jobId,
        source_id: 'chirps',
        name: `normals-${jobId}`,
        organization_id: 'org-1',
        year_from: 1991,
        year_to: 2020,
        period: 'month',
        stat: 'sum',
        min_years: 24,
        requested_by: 'designer',
        requested_at: requestedAt,
      }),
    succeed: async (db, jobId, leaseId, now) =>
      finishClimatology(
        db,
        await loadClimatologyRequest(db, jobId),
        leaseId,
        { digest: 'sha256:test', readings_as_of: now, locations: [] },
        now,
      ),
  },
  {
    kind: 'product backtest',
    tables: productBacktestJobs,
    request: (db, jobId, requestedAt) =>
      recordProductBacktestRequest(db, {
        job_id: jobId,
        organization_id: 'org-1',
        product: null,
        sheet: { version: 2 } as never,
        perils: ['drought'],
        season: { from: '06-01', to: '06-30' },
        year_from: 2019,
        year_to: 2021,
        locations: [],
        basis: null,
        requested_by: 'designer',
        requested_at: requestedAt,
      }),
    succeed: (db, jobId, leaseId, now) =>
      finishProductBacktest(db, jobId, leaseId, { summary: { locations: 0 } as never, locations: [] }, now),
  },
];

describe.each(kinds)('the leased $kind jobs', ({ kind, tables, request, succeed }) => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let db: Kysely<ReadModels>;
  const id = (name: string) => `${kind.replaceAll(' ', '-')}-${name}`;
  const claim = (lease: JobLease) => claimLeasedJob(db, tables, lease);
  const renew = (jobId: string, lease: JobLease) => renewJobLease(db, tables.runs, jobId, lease);
  const fail = (jobId: string, leaseId: string, now: Date) =>
    failLeasedRun(db, tables.runs, jobId, leaseId, FAILURE, now);
  const run = (jobId: string) =>
    db
      .selectFrom(tables.runs)
      .select(['status', 'lease_id', 'leased_until', 'attempts', 'started_at', 'completed_at', 'error'])
      .where('job_id', '=', jobId)
      .executeTakeFirst();

  beforeAll(async () => {
    database = await createTestDatabase(`leased_${kind.replaceAll(' ', '_')}`);
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    db = createKysely<ReadModels>(pool);
    await migrateReadModels(db);
  });
  afterAll(async () => {
    if (pool) await endPool(pool);
    await database?.drop();
  });

  it('claims the oldest job first, each once, and none while every lease is live', async () => {
    await request(db, id('later'), at(2));
    await request(db, id('older'), at(1));
    const first = await claim({ leaseId: 'a', now: at(10), leaseMs: LEASE_MS });
    const second = await claim({ leaseId: 'b', now: at(10), leaseMs: LEASE_MS });
    expect([first?.jobId, first?.attempts]).toEqual([id('older'), 1]);
    expect([second?.jobId, second?.attempts]).toEqual([id('later'), 1]);
    expect(await claim({ leaseId: 'c', now: at(20), leaseMs: LEASE_MS })).toBeUndefined();
    expect(await run(id('older'))).toMatchObject({
      status: 'running',
      lease_id: 'a',
      leased_until: at(10 + LEASE_MS),
      attempts: 1,
      started_at: at(10),
      completed_at: null,
    });
    // Done with both, so the tests after this one see only their own jobs.
    await fail(id('older'), 'a', at(30));
    await fail(id('later'), 'b', at(30));
  });

  it('gives each of two claimers at once a different job', async () => {
    await request(db, id('one'), at(100));
    await request(db, id('two'), at(101));
    const claims = await Promise.all([
      claim({ leaseId: 'x', now: at(200), leaseMs: LEASE_MS }),
      claim({ leaseId: 'y', now: at(200), leaseMs: LEASE_MS }),
    ]);
    expect(claims.map((claimed) => claimed?.jobId).sort()).toEqual([id('one'), id('two')]);
    await fail(id('one'), claims[0]?.jobId === id('one') ? 'x' : 'y', at(300));
    await fail(id('two'), claims[0]?.jobId === id('two') ? 'x' : 'y', at(300));
  });

  it('renews a live lease only for its holder, and hands an expired one to the next claimer', async () => {
    await request(db, id('stalled'), at(1_000));
    await claim({ leaseId: 'first', now: at(1_000), leaseMs: LEASE_MS });
    expect(await renew(id('stalled'), { leaseId: 'other', now: at(2_000), leaseMs: LEASE_MS })).toBe(false);
    expect(await renew(id('stalled'), { leaseId: 'first', now: at(2_000), leaseMs: LEASE_MS })).toBe(true);
    expect((await run(id('stalled')))?.leased_until).toEqual(at(2_000 + LEASE_MS));
    // Not over yet at the lease's last instant; over just after.
    expect(await claim({ leaseId: 'second', now: at(2_000 + LEASE_MS), leaseMs: LEASE_MS })).toBeUndefined();
    const again = await claim({ leaseId: 'second', now: at(2_001 + LEASE_MS), leaseMs: LEASE_MS });
    expect([again?.jobId, again?.attempts]).toEqual([id('stalled'), 2]);
    expect(await run(id('stalled'))).toMatchObject({ lease_id: 'second', started_at: at(2_001 + LEASE_MS) });
    expect(await renew(id('stalled'), { leaseId: 'first', now: at(70_000), leaseMs: LEASE_MS })).toBe(false);

    // The overtaken runner's ending is no ending; the holder's is.
    await fail(id('stalled'), 'first', at(70_000));
    expect(await run(id('stalled'))).toMatchObject({ status: 'running', lease_id: 'second', error: null });
    await fail(id('stalled'), 'second', at(71_000));
    expect(await run(id('stalled'))).toMatchObject({
      status: 'failed',
      lease_id: null,
      leased_until: null,
      attempts: 2,
      completed_at: at(71_000),
      error: FAILURE,
    });
    expect(await renew(id('stalled'), { leaseId: 'second', now: at(72_000), leaseMs: LEASE_MS })).toBe(false);
    expect(await claim({ leaseId: 'third', now: at(10_000_000), leaseMs: LEASE_MS })).toBeUndefined();
  });

  it("records a success only under the holder's lease, and never claims the job again", async () => {
    await request(db, id('done'), at(100_000));
    await claim({ leaseId: 'first', now: at(100_000), leaseMs: LEASE_MS });
    await claim({ leaseId: 'second', now: at(200_000), leaseMs: LEASE_MS });
    await succeed(db, id('done'), 'first', at(200_001));
    expect(await run(id('done'))).toMatchObject({ status: 'running', lease_id: 'second' });
    await succeed(db, id('done'), 'second', at(200_002));
    expect(await run(id('done'))).toMatchObject({
      status: 'succeeded',
      lease_id: null,
      leased_until: null,
      attempts: 2,
      completed_at: at(200_002),
      error: null,
    });
    expect(await claim({ leaseId: 'third', now: at(10_000_000), leaseMs: LEASE_MS })).toBeUndefined();
  });
});
