import { createHash } from 'node:crypto';
import type { Cadence } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateOfDay, dayNumber } from '../../insurance/calendar/calendar-date';
import { rationalOf } from '../../insurance/money/rational';
import { canonicalJson } from '../../insurance/term-sheet/sheet-digest';
import { periodOf } from '../cadence';
import { climatologyDigest } from './climatology-digest';
import { climatologyNormalsFor } from './climatology-normals';
import { periodStarts, periodsOfYear } from './climatology-periods';
import { defaultMinYears, type LocationSeries, locationNormals } from './compute-climatology';
import { exactNormalOf, integerSquareRoot, roundedSquareRoot } from './exact-statistics';

const dates = ({ first, last }: { first: number; last: number }) => [dateOfDay(first), dateOfDay(last)];

describe('the periods of a year', () => {
  it('are dekads 1–10, 11–20 and 21 to the month end', () => {
    const dekads = periodsOfYear('dekad', 2024);
    expect(dekads).toHaveLength(36);
    expect(dates(dekads[0]!)).toEqual(['2024-01-01', '2024-01-10']);
    expect(dates(dekads[5]!)).toEqual(['2024-02-21', '2024-02-29']);
    expect(dates(periodsOfYear('dekad', 2023)[5]!)).toEqual(['2023-02-21', '2023-02-28']);
    expect(dates(dekads[35]!)).toEqual(['2024-12-21', '2024-12-31']);
  });

  it('are MODIS 8- and 16-day periods from 1 January, the last ending on 31 December', () => {
    const common = periodsOfYear('8_day', 2023);
    const leap = periodsOfYear('8_day', 2024);
    expect([common.length, leap.length]).toEqual([46, 46]);
    expect(dates(common[45]!)).toEqual(['2023-12-27', '2023-12-31']);
    expect(dates(leap[45]!)).toEqual(['2024-12-26', '2024-12-31']);
    expect(dates(leap[9]!)).toEqual(['2024-03-13', '2024-03-20']);
    expect(periodsOfYear('16_day', 2023)).toHaveLength(23);
    expect(dates(periodsOfYear('16_day', 2023)[22]!)).toEqual(['2023-12-19', '2023-12-31']);
    expect(periodsOfYear({ days: 5 }, 2024).map(dates).at(-1)).toEqual(['2024-12-26', '2024-12-31']);
  });

  it('are months, and one window a year, which may wrap the year end', () => {
    expect(periodsOfYear('month', 2024).map(dates)[1]).toEqual(['2024-02-01', '2024-02-29']);
    const season = { window: { from: '11-01', to: '02-29' } };
    expect(periodsOfYear(season, 2023).map(dates)).toEqual([['2023-11-01', '2024-02-29']]);
    expect(periodsOfYear(season, 2022).map(dates)).toEqual([['2022-11-01', '2023-02-28']]);
  });

  it('are named by their first day in a common year', () => {
    expect(periodStarts('dekad').slice(0, 4)).toEqual(['01-01', '01-11', '01-21', '02-01']);
    expect(periodStarts('8_day')[9]).toBe('03-14');
  });
});

describe('exact statistics', () => {
  const millionths = (...values: number[]) => values.map((value) => rationalOf(BigInt(Math.round(value * 1e6)), 1n));

  it('give the mean, the sample standard deviation and nearest-rank percentiles', () => {
    const normal = exactNormalOf(millionths(10, 20, 30));
    expect(normal.mean).toBe(20);
    expect(normal.sd).toBe(10);
    expect([normal.percentiles.p5, normal.percentiles.p35, normal.percentiles.p50, normal.percentiles.p95]).toEqual([
      10, 20, 20, 30,
    ]);
    expect(exactNormalOf(millionths(0, 4)).sd).toBe(2.828427);
    expect(exactNormalOf(millionths(0, 0.000001)).sd).toBe(0.000001);
    // 20 values: p5 is the 1st, p50 the 10th, p95 the 19th.
    const twenty = exactNormalOf(millionths(...Array.from({ length: 20 }, (_, at) => 20 - at)));
    expect([twenty.percentiles.p5, twenty.percentiles.p50, twenty.percentiles.p95]).toEqual([1, 10, 19]);
  });

  it('round each figure once, half up, from its exact value', () => {
    // Means of periods: 1/3 and 2/3 of a millionth average to exactly half a millionth.
    expect(exactNormalOf([rationalOf(1n, 3n), rationalOf(2n, 3n)]).mean).toBe(0.000001);
    expect(exactNormalOf([rationalOf(1n, 3n), rationalOf(1n, 3n)]).mean).toBe(0);
    expect(roundedSquareRoot(rationalOf(25n, 4n))).toBe(3n);
    expect(roundedSquareRoot(rationalOf(9n, 4n))).toBe(2n);
    expect(roundedSquareRoot(rationalOf(24n, 4n))).toBe(2n);
    expect(roundedSquareRoot(rationalOf(0n, 1n))).toBe(0n);
  });

  it('take an integer square root that is exact for any size', () =>
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 60n }), (n) => {
        const root = integerSquareRoot(n);
        expect(root * root <= n && (root + 1n) * (root + 1n) > n).toBe(true);
      }),
    ));

  it('agree with a floating-point reference within its error', () =>
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300_000_000 }), { minLength: 2, maxLength: 40 }), (scaled) => {
        const values = scaled.map((value) => value / 1e6);
        const normal = exactNormalOf(scaled.map((value) => rationalOf(BigInt(value), 1n)));
        const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
        const sd = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
        expect(Math.abs(normal.mean - mean)).toBeLessThanOrEqual(0.0000005 + 1e-9);
        expect(Math.abs(normal.sd - sd)).toBeLessThanOrEqual(0.0000005 + 1e-6);
        const sorted = [...values].sort((a, b) => a - b);
        expect(normal.percentiles.p50).toBe(sorted[Math.ceil(values.length / 2) - 1]);
        expect(normal.percentiles.p95).toBe(sorted[Math.ceil((values.length * 95) / 100) - 1]);
      }),
    ));
});

/** Daily values of `years`, `value(date)` each day, leaving out the dates `gaps` lists. */
const dailySeries = (location: string, years: number[], value: (date: string) => number, gaps: string[] = []) => {
  const days = new Map<number, number>();
  for (const year of years) {
    for (let day = dayNumber(`${year}-01-01`); day <= dayNumber(`${year}-12-31`); day += 1) {
      if (!gaps.includes(dateOfDay(day))) days.set(day, value(dateOfDay(day)));
    }
  }
  return { location, days } satisfies LocationSeries;
};

describe('the normals of a location', () => {
  const years = { from: 2001, to: 2003 };
  const daily: Record<string, number> = { '2001': 0.2, '2002': 0.3, '2003': 0.4 };
  const rain = (date: string) => daily[date.slice(0, 4)] ?? 0;

  it('sum each complete period of each year, then take its statistics', () => {
    const normals = locationNormals(
      { years, period: 'dekad', stat: 'sum', minYears: 3, cadence: 'daily' },
      dailySeries('KE-A', [2001, 2002, 2003], rain),
    );
    expect(normals.location).toBe('KE-A');
    expect(normals.periods).toHaveLength(36);
    expect(normals.periods[0]).toMatchObject({ period: 1, starts: '01-01', n: 3, mean: 3, sd: 1 });
    expect(normals.periods[0]?.percentiles?.p5).toBe(2);
    expect(normals.periods[2]).toMatchObject({ period: 3, starts: '01-21', n: 3, mean: 3.3, sd: 1.1 });
  });

  it('count no period with a day missing, and give no normal under min_years', () => {
    const normals = locationNormals(
      { years, period: 'dekad', stat: 'mean', minYears: 3, cadence: 'daily' },
      dailySeries('KE-A', [2001, 2002, 2003], rain, ['2002-01-05']),
    );
    expect(normals.periods[0]).toEqual({
      period: 1,
      starts: '01-01',
      n: 2,
      mean: null,
      sd: null,
      percentiles: null,
    });
    expect(normals.periods[1]).toMatchObject({ n: 3, mean: 0.3, sd: 0.1 });
  });

  /** A reading on the first day of each period of `cadence` in the years, valued by `value`. */
  const periodSeries = (cadence: Cadence, value: (date: string) => number): LocationSeries => {
    const days = new Map<number, number>();
    for (let day = dayNumber('2001-01-01'); day <= dayNumber('2003-12-31'); ) {
      const period = periodOf(cadence, dateOfDay(day));
      days.set(day, value(period.start));
      day = dayNumber(period.end) + 1;
    }
    return { location: 'KE-A', days };
  };

  it('read a dekadal, 8-day or monthly source as one reading per period of its cadence', () => {
    const dekadal = locationNormals(
      { years, period: 'dekad', stat: 'sum', minYears: 3, cadence: 'dekad' },
      periodSeries('dekad', (date) => 10 * rain(date)),
    );
    expect(dekadal.periods[0]).toMatchObject({ period: 1, n: 3, mean: 3, sd: 1 });
    expect(dekadal.periods[35]).toMatchObject({ period: 36, starts: '12-21', n: 3, mean: 3 });
    const monthly = locationNormals(
      { years, period: 'month', stat: 'sum', minYears: 3, cadence: 'dekad' },
      periodSeries('dekad', (date) => 10 * rain(date)),
    );
    expect(monthly.periods[1]).toMatchObject({ period: 2, starts: '02-01', n: 3, mean: 9, sd: 3 });
    const ndvi = locationNormals(
      { years, period: '16_day', stat: 'mean', minYears: 3, cadence: '8_day' },
      periodSeries('8_day', (date) => (date.endsWith('-01-09') ? 0.5 : 0.3)),
    );
    expect(ndvi.periods[0]).toMatchObject({ period: 1, starts: '01-01', n: 3, mean: 0.4, sd: 0 });
    expect(ndvi.periods[22]).toMatchObject({ period: 23, starts: '12-19', n: 3, mean: 0.3 });
  });

  it('count no period a reading of the cadence runs past, nor one with a reading missing', () => {
    // Monthly readings cannot make a dekad; 8-day composites cannot make a 10-day window.
    const dekadsOfMonths = locationNormals(
      { years, period: 'dekad', stat: 'sum', minYears: 3, cadence: 'month' },
      periodSeries('month', () => 30),
    );
    expect(dekadsOfMonths.periods.every((period) => period.n === 0)).toBe(true);
    const full = periodSeries('dekad', () => 5);
    const gapped = { ...full, days: new Map([...full.days].filter(([day]) => day !== dayNumber('2002-01-11'))) };
    const months = locationNormals({ years, period: 'month', stat: 'sum', minYears: 2, cadence: 'dekad' }, gapped);
    expect(months.periods[0]).toMatchObject({ n: 2, mean: 15 });
  });

  it('need 80 % of the span by default', () => {
    expect(defaultMinYears({ from: 1991, to: 2020 })).toBe(24);
    expect(defaultMinYears({ from: 2001, to: 2003 })).toBe(3);
    expect(defaultMinYears({ from: 1981, to: 2019 })).toBe(32);
  });
});

describe('a climatology as a sheet reads it', () => {
  const climatology = {
    source_id: 'src-1',
    name: 'chirps-dekadal',
    version: 2,
    digest: 'sha256:ab',
    period: 'dekad' as const,
    stat: 'sum' as const,
    locations: [
      locationNormals(
        { years: { from: 2001, to: 2002 }, period: 'dekad', stat: 'sum', minYears: 2, cadence: 'daily' },
        dailySeries('KE-A', [2001, 2002], () => 1, ['2001-01-05']),
      ),
    ],
  };

  it('freezes its name, version, digest and every normal of the location', () => {
    const frozen = climatologyNormalsFor(climatology, 'KE-A');
    expect(frozen).toMatchObject({ name: 'chirps-dekadal', version: 2, digest: 'sha256:ab', period: 'dekad' });
    expect(frozen.normals.slice(0, 2).map((normal) => [normal.period, normal.mean])).toEqual([
      [2, 10],
      [3, 11],
    ]);
    expect(frozen.normals).toHaveLength(35);
  });

  it('is no_climatology for a location without a normal', () => {
    expect(() => climatologyNormalsFor(climatology, 'KE-Z')).toThrow(
      expect.objectContaining({ code: 'no_climatology', message: expect.stringContaining('KE-Z') }),
    );
  });

  it('is named by the digest of its canonical JSON', () => {
    const content = {
      source_id: 'src-1',
      name: 'chirps-dekadal',
      years: { from: 2001, to: 2002 },
      period: 'dekad' as const,
      stat: 'sum' as const,
      min_years: 2,
      locations: [...climatology.locations, { ...climatology.locations[0]!, location: 'KE-B' }],
    };
    const expected = `sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex')}`;
    expect(climatologyDigest(content)).toBe(expected);
    expect(climatologyDigest({ ...content, locations: [] })).toBe(
      `sha256:${createHash('sha256')
        .update(canonicalJson({ ...content, locations: [] }))
        .digest('hex')}`,
    );
  });
});
