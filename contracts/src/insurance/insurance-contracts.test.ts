import { describe, expect, it } from 'vitest';
import { CalendarDate } from './calendar-date';
import { EvaluateRequest } from './evaluation';
import { IndexReadingsQuery, IndexReadingsRequest } from './index-readings';
import { decimalPlaces } from './money-amount';
import { LapseRequest, PolicyIssueRequest, PolicyListQuery } from './policy';
import { QuoteRequest } from './quote';

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('calendar dates', () => {
  it('accept real dates only', () => {
    expect(CalendarDate.safeParse('2024-02-29').success).toBe(true);
    expect(CalendarDate.safeParse('2025-02-29').success).toBe(false);
    expect(CalendarDate.safeParse('2026-02-30').success).toBe(false);
    expect(CalendarDate.safeParse('2026-13-01').success).toBe(false);
    expect(CalendarDate.safeParse('2026-4-1').success).toBe(false);
    expect(CalendarDate.safeParse('2026-04-01T00:00:00Z').success).toBe(false);
  });
});

describe('quote and issue requests', () => {
  const quote = { farm_id: 'farm-1', field_id: 'north', perils: ['drought'], sum_insured: 1234.56 };

  it('accept the seed shape, with optional currency and term', () => {
    expect(QuoteRequest.parse(quote)).toEqual(quote);
    expect(
      QuoteRequest.safeParse({ ...quote, currency: 'KES', term_start: '2026-04-01', term_end: '2026-09-30' }).success,
    ).toBe(true);
  });

  it('refuse unknown fields, empty or repeated perils, unknown perils, bad amounts and currencies', () => {
    expect(issuesOf(QuoteRequest.safeParse({ ...quote, extra: 1 }))).toHaveLength(1);
    expect(issuesOf(QuoteRequest.safeParse({ ...quote, perils: [] }))).toEqual([
      'perils: must name at least one peril',
    ]);
    expect(issuesOf(QuoteRequest.safeParse({ ...quote, perils: ['flood', 'flood'] }))).toEqual([
      'perils: must not repeat a peril',
    ]);
    expect(QuoteRequest.safeParse({ ...quote, perils: ['hail'] }).success).toBe(false);
    expect(QuoteRequest.safeParse({ ...quote, sum_insured: 0 }).success).toBe(false);
    expect(QuoteRequest.safeParse({ ...quote, sum_insured: 10_000_000_001 }).success).toBe(false);
    expect(QuoteRequest.safeParse({ ...quote, currency: 'usd' }).success).toBe(false);
    expect(issuesOf(QuoteRequest.safeParse({ ...quote, currency: 'JPY', sum_insured: 10.5 }))).toEqual([
      'sum_insured: has more decimals than JPY allows',
    ]);
    expect(issuesOf(QuoteRequest.safeParse({ ...quote, term_start: '2026-04-01' }))).toEqual([
      'term_end: term_start and term_end go together',
    ]);
  });

  it('issue needs a term of real dates', () => {
    const issue = { ...quote, crop_type: 'maize', term_start: '2026-04-01', term_end: '2026-09-30' };
    expect(PolicyIssueRequest.safeParse(issue).success).toBe(true);
    expect(PolicyIssueRequest.safeParse({ ...issue, term_end: '2026-09-31' }).success).toBe(false);
    expect(PolicyIssueRequest.safeParse({ ...issue, term_start: undefined }).success).toBe(false);
  });

  it('count decimals of numbers as JSON writes them', () => {
    expect(decimalPlaces(1234.56)).toBe(2);
    expect(decimalPlaces(100)).toBe(0);
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(1e21)).toBe(0);
  });
});

describe('list queries', () => {
  it('default and read page and page_size from query strings of decimal digits', () => {
    expect(PolicyListQuery.parse({})).toEqual({ page: 1, page_size: 20 });
    expect(PolicyListQuery.parse({ page: '3', page_size: '100', status: 'claimed', peril: 'storm' })).toEqual({
      page: 3,
      page_size: 100,
      status: 'claimed',
      peril: 'storm',
    });
  });

  it('refuse out-of-range or non-integer pages and unknown filters', () => {
    for (const bad of [
      { page: '0' },
      { page: '1.5' },
      { page: 'x' },
      { page: '0x10' },
      { page: '1e1' },
      { page: ' 2' },
      { page: '+3' },
      { page: '' },
      { page: ['1', '2'] },
      { page: '9999999999' },
      { page_size: '0x14' },
      { page_size: '101' },
      { page_size: '0' },
      { status: 'open' },
      { sort: 'x' },
    ]) {
      expect(PolicyListQuery.safeParse(bad).success).toBe(false);
    }
  });
});

describe('evaluate and lapse requests', () => {
  it('are strict', () => {
    expect(EvaluateRequest.parse({})).toEqual({});
    expect(EvaluateRequest.safeParse({ as_of: '2015-06-01' }).success).toBe(true);
    expect(EvaluateRequest.safeParse({ as_of: '2015-06-31' }).success).toBe(false);
    expect(EvaluateRequest.safeParse({ asOf: '2015-06-01' }).success).toBe(false);
    expect(LapseRequest.safeParse({ reason: '  ' }).success).toBe(false);
    expect(LapseRequest.parse({ reason: ' premium unpaid ' })).toEqual({ reason: 'premium unpaid' });
  });
});

describe('index readings', () => {
  const reading = { farm_id: 'farm-1', field_id: 'north', index: 'rainfall_mm', date: '2026-04-01', value: 12.5 };

  it('accept readings within the bounds of their index', () => {
    expect(
      IndexReadingsRequest.safeParse({
        readings: [reading, { ...reading, index: 'ndvi', value: -0.2, source: 'sentinel-2' }],
      }).success,
    ).toBe(true);
  });

  it('refuse sentinels and out-of-range values, naming the reading', () => {
    expect(
      issuesOf(
        IndexReadingsRequest.safeParse({ readings: [reading, { ...reading, date: '2026-04-02', value: -9999 }] }),
      ),
    ).toEqual(['readings.1.value: rainfall_mm must be from 0 to 1000']);
    expect(IndexReadingsRequest.safeParse({ readings: [{ ...reading, index: 'ndvi', value: 1.2 }] }).success).toBe(
      false,
    );
    expect(
      IndexReadingsRequest.safeParse({ readings: [{ ...reading, index: 'wind_speed_ms', value: 121 }] }).success,
    ).toBe(false);
    expect(IndexReadingsRequest.safeParse({ readings: [{ ...reading, index: 'soil_moisture' }] }).success).toBe(false);
  });

  it('refuse an empty batch, more than 10,000 readings, and the same key twice', () => {
    expect(IndexReadingsRequest.safeParse({ readings: [] }).success).toBe(false);
    const many = Array.from({ length: 10_001 }, (_, day) => ({
      ...reading,
      date: new Date(Date.UTC(2000, 0, 1 + day)).toISOString().slice(0, 10),
    }));
    expect(IndexReadingsRequest.safeParse({ readings: many }).success).toBe(false);
    expect(IndexReadingsRequest.safeParse({ readings: many.slice(0, 10_000) }).success).toBe(true);
    expect(issuesOf(IndexReadingsRequest.safeParse({ readings: [reading, { ...reading, value: 3 }] }))).toEqual([
      'readings.1: repeats the location, index and date of an earlier reading',
    ]);
  });

  it('take a reading by source and location, or per field, never a mix of the two', () => {
    const bySource = {
      source_id: '01a20b0c-8e4a-70d5-b3e5-1ec6587e62b8',
      location: 'NBO-1',
      date: '2026-04-01',
      value: 3,
    };
    expect(IndexReadingsRequest.safeParse({ readings: [bySource, reading] }).success).toBe(true);
    // The index of a reading by source is the source's, checked once the source is loaded.
    expect(IndexReadingsRequest.safeParse({ readings: [{ ...bySource, value: 5000 }] }).success).toBe(true);
    expect(issuesOf(IndexReadingsRequest.safeParse({ readings: [{ ...bySource, index: 'ndvi', value: 3 }] }))).toEqual([
      'readings.0.value: ndvi must be from -1 to 1',
    ]);
    expect(issuesOf(IndexReadingsRequest.safeParse({ readings: [{ ...bySource, farm_id: 'farm-1' }] }))).toEqual([
      'readings.0.source_id: give source_id and location, or farm_id and field_id, not both',
      'readings.0.location: give source_id and location, or farm_id and field_id, not both',
      'readings.0.farm_id: give source_id and location, or farm_id and field_id, not both',
    ]);
    // The probe's request: no source_id at all, so the error must not be put on it.
    const { source_id: ___, ...locationOnly } = bySource;
    expect(
      issuesOf(IndexReadingsRequest.safeParse({ readings: [{ ...locationOnly, farm_id: 'farm-1', field_id: 'f1' }] })),
    ).toEqual([
      'readings.0.location: give source_id and location, or farm_id and field_id, not both',
      'readings.0.farm_id: give source_id and location, or farm_id and field_id, not both',
      'readings.0.field_id: give source_id and location, or farm_id and field_id, not both',
    ]);
    expect(issuesOf(IndexReadingsQuery.safeParse({ location: 'NBO-1', field_id: 'f1' }))).toEqual([
      'location: give source_id and location, or farm_id and field_id, not both',
      'field_id: give source_id and location, or farm_id and field_id, not both',
    ]);
    const { location: _, ...withoutLocation } = bySource;
    expect(issuesOf(IndexReadingsRequest.safeParse({ readings: [withoutLocation] }))).toEqual([
      'readings.0.location: is required',
    ]);
    const { index: __, ...withoutIndex } = reading;
    expect(issuesOf(IndexReadingsRequest.safeParse({ readings: [withoutIndex] }))).toEqual([
      'readings.0.index: is required',
    ]);
    expect(IndexReadingsRequest.safeParse({ readings: [{ ...bySource, source_id: 'not-a-uuid' }] }).success).toBe(
      false,
    );
  });
});
