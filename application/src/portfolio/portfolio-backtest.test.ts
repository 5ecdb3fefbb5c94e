import { defaultProgrammeId, fieldLocation, organizationFieldSourceId } from '@cropcover/domain';
import { policyIssuedEvents } from '@cropcover/domain/testing';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIndexReadings } from '../index-readings/record-index-readings';
import { issueInProgramme } from '../programmes/issue-in-programme';
import { underwriterContext } from '../testing/underwriter-context';
import { computePortfolioBacktest } from './portfolio-backtest';

// An as-if backtest names the book at the end of `as_of`, and its readings as they stood then (issue 32
// item 7): an auditor re-running the job after a reading was revised gets the same figures and digest.

const NOW = new Date('2026-04-01T12:00:00.000Z');
const context = underwriterContext(NOW);
const programmeId = defaultProgrammeId('org-1', 'KES');

describe('the as-if backtest of a programme', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let db: Kysely<ReadModels>;
  let eventStore: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase('portfolio_backtest_as_of');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    db = createKysely<ReadModels>(pool);
    await migrateEventStore(pool);
    await migrateReadModels(db);
    eventStore = createPostgresEventStore({ pool });
  });
  afterAll(async () => {
    await eventStore?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  /** The field's rainfall of the 2025 season, recorded at `at`. */
  const rain = (values: Record<string, number>, at: string) =>
    db.transaction().execute((trx) =>
      recordIndexReadings(
        trx,
        Object.entries(values).map(([date, value]) => ({
          sourceId: organizationFieldSourceId('org-1'),
          location: fieldLocation('farm-1', 'north'),
          index: 'rainfall_mm',
          date,
          value,
          note: null,
        })),
        new Date(at),
        'feed',
      ),
    );

  const backtestAsOf = (asOf: string) =>
    computePortfolioBacktest(
      { eventStore, db },
      {
        job_id: `job-${asOf}`,
        programme_id: programmeId,
        organization_id: 'org-1',
        seasons: 1,
        as_of: asOf,
        perils: null,
        apply_treaties: false,
        requested_at: NOW,
      },
    );

  it('reads the readings as they stood at the end of as_of: a later revision changes neither figures nor digest', async () => {
    await issueInProgramme(eventStore, 'flooded', () => policyIssuedEvents({ policyId: 'flooded' }), context);
    // Five days of 40 mm in the 2025 season: 200 mm over five days, a third of the way from 150 to 300.
    const burst = Object.fromEntries(
      ['2025-04-10', '2025-04-11', '2025-04-12', '2025-04-13', '2025-04-14'].map((date) => [date, 40]),
    );
    await rain(burst, '2026-04-01T13:00:00.000Z');
    const before = await backtestAsOf('2026-04-01');
    expect(before.seasons[0]!.gross).toBeGreaterThan(0);

    await rain({ '2025-04-12': 100 }, '2026-04-02T09:00:00.000Z');
    const rerun = await backtestAsOf('2026-04-01');
    expect(rerun).toEqual(before);
    // As of the day the revision was recorded, the backtest reads it.
    const revised = await backtestAsOf('2026-04-02');
    expect(revised.inputs.digest).not.toBe(before.inputs.digest);
    expect(revised.seasons[0]!.gross).toBeGreaterThan(before.seasons[0]!.gross);
  });
});
