import type { PolicyDataSources, QuoteRequest } from '@cropcover/contracts';
import { addDays, farmAggregate, quoteCover } from '@cropcover/domain';
import { insuredFarmEvents } from '@cropcover/domain/testing';
import { loadReadingHistory, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordIndexReadings, type SourceReading } from '../index-readings/record-index-readings';
import { readingHistoryCache } from '../readings/cached-reading-history';
import { pricedQuotes } from './priced-quotes';

// Quotes kept by what they are priced from, rates reused across sums insured: every answer must equal
// the quote priced afresh from the read store, before and after the readings change.

const TODAY = '2026-03-25';
const SEASONS = 12;
const FIELD = 'farm-1/north';
const dataSources: PolicyDataSources = {
  storm: { source_id: 'organization-fields:org-1', kind: 'field', index: 'wind_speed_ms', location: FIELD },
};
const farm = {
  state: insuredFarmEvents().reduce(farmAggregate.evolve, farmAggregate.initial),
  expected: 1,
  position: undefined,
};
const quoteOf = (sumInsured: number): QuoteRequest => ({
  farm_id: 'farm-1',
  field_id: 'north',
  perils: ['storm'],
  sum_insured: sumInsured,
  currency: 'KES',
  term_start: TODAY,
  term_end: addDays(TODAY, 364),
});

/** Calm wind every day of the past seasons, with a storm `stormDays` days back when given. */
const windReadings = (stormDaysBack?: number): SourceReading[] =>
  Array.from({ length: SEASONS * 366 }, (_, back) => ({
    sourceId: 'organization-fields:org-1',
    location: FIELD,
    index: 'wind_speed_ms' as const,
    date: addDays(TODAY, -(back + 1)),
    value: back + 1 === stormDaysBack ? 40 : 5,
    note: null,
  }));

describe('quotes answered as priced', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  const record = (readings: readonly SourceReading[]) =>
    db.transaction().execute((trx) => recordIndexReadings(trx, readings, new Date(), 'provider-1'));
  const afresh = async (request: QuoteRequest) =>
    quoteCover({
      request,
      farm: farm.state,
      today: TODAY,
      dataSources,
      history: await loadReadingHistory(db, { sources: dataSources }),
    });

  beforeAll(async () => {
    database = await createTestDatabase('priced_quotes');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' }), { max: 4 }));
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('answers each sum insured as priced afresh, and prices again once the readings change', async () => {
    const quote = pricedQuotes(readingHistoryCache(db));
    await record(windReadings(200));
    const stormy = [];
    for (const sum of [10_000, 25_000, 10_000, 99_999]) {
      const answered = await quote({ request: quoteOf(sum), farm, today: TODAY, dataSources });
      expect(answered).toEqual(await afresh(quoteOf(sum)));
      stormy.push(answered.rate);
    }

    // The storm was a faulty sensor: corrected, the burning cost falls for every sum insured.
    await record(windReadings());
    for (const sum of [10_000, 25_000, 99_999]) {
      const answered = await quote({ request: quoteOf(sum), farm, today: TODAY, dataSources });
      expect(answered).toEqual(await afresh(quoteOf(sum)));
      expect(Number(answered.rate)).toBeLessThan(Number(stormy[0]));
      expect(answered.breakdown.storm?.method).toBe('burning_cost');
    }
  });
});
