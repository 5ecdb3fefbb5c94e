import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { insuredFarm, irrigatedFarm } from '../testing/insured-farm';
import { ownFieldDataSources } from './peril-data';
import { priceQuote } from './pricing';
import { quoteCover } from './quote';
import type { IndexObservation } from './trigger-evaluation';

const term = { start: '2026-04-01', end: '2026-04-10' };
const today = '2026-03-25';
const base = { sumInsuredMinor: 1_000_000, hasIrrigation: false, term, today, history: {} };

/** Past seasons k = 1 … count of the 10-day term, `rainIn(k)` mm on the season's first day and then
 *  dry, read on `daysRead` of its 10 days (all by default: a complete season). */
const seasonalRain = (count: number, rainIn: (years: number) => number, daysRead = 10): IndexObservation[] =>
  Array.from({ length: count }, (_, at) =>
    Array.from({ length: daysRead }, (__, day) => ({
      date: `${2025 - at}-04-${String(day + 1).padStart(2, '0')}`,
      value: day === 0 ? rainIn(at + 1) : 0,
      revision: 1,
    })),
  ).flat();

describe('pricing with base rates', () => {
  it('sums the catalog base rates and splits the premium exactly', () => {
    const pricing = priceQuote({ ...base, perils: ['drought', 'flood', 'vegetation_stress', 'storm'] });
    expect(pricing.ratePpm).toBe(140_000);
    expect(pricing.premiumMinor).toBe(140_000);
    expect(pricing.perils.map((peril) => [peril.peril, peril.ratePpm, peril.premiumMinor, peril.method])).toEqual([
      ['drought', 50_000, 50_000, 'base_rate'],
      ['flood', 30_000, 30_000, 'base_rate'],
      ['vegetation_stress', 40_000, 40_000, 'base_rate'],
      ['storm', 20_000, 20_000, 'base_rate'],
    ]);
  });

  it('takes 40% off drought for an irrigated farm, and only drought', () => {
    const pricing = priceQuote({ ...base, hasIrrigation: true, perils: ['drought', 'storm'] });
    expect(pricing.perils.map((peril) => peril.ratePpm)).toEqual([30_000, 20_000]);
  });

  it('rounds the premium half-up to the minor unit', () => {
    expect(priceQuote({ ...base, sumInsuredMinor: 10, perils: ['flood'] }).premiumMinor).toBe(0);
    expect(priceQuote({ ...base, sumInsuredMinor: 50, perils: ['storm'] }).premiumMinor).toBe(1);
    expect(priceQuote({ ...base, sumInsuredMinor: 49, perils: ['storm'] }).premiumMinor).toBe(1);
    expect(priceQuote({ ...base, sumInsuredMinor: 24, perils: ['storm'] }).premiumMinor).toBe(0);
  });

  it('per-peril premiums add up exactly to the premium', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000_000_000 }),
        fc.uniqueArray(fc.constantFrom('drought', 'flood', 'vegetation_stress', 'storm' as const), { minLength: 1 }),
        fc.boolean(),
        (sumInsuredMinor, perils, hasIrrigation) => {
          const pricing = priceQuote({ ...base, sumInsuredMinor, perils, hasIrrigation });
          expect(pricing.perils.reduce((sum, peril) => sum + peril.premiumMinor, 0)).toBe(pricing.premiumMinor);
        },
      ),
    );
  });
});

describe('burning-cost pricing', () => {
  it('uses the mean payout fraction of past seasons × 1.3 once 10 seasons have readings', () => {
    // Seasons 1-6 have a 225 mm day (flood severity 0.5), seasons 7-12 a dry day: mean 0.25.
    const history = { flood: seasonalRain(12, (years) => (years <= 6 ? 225 : 0)) };
    const [flood] = priceQuote({ ...base, perils: ['flood'], history }).perils;
    expect(flood).toEqual({
      peril: 'flood',
      ratePpm: 325_000,
      premiumMinor: 325_000,
      method: 'burning_cost',
      seasonsUsed: 12,
    });
  });

  it('is floored at half the base rate and needs 10 seasons', () => {
    const dry = { flood: seasonalRain(10, () => 0) };
    expect(priceQuote({ ...base, perils: ['flood'], history: dry }).perils[0]).toMatchObject({
      ratePpm: 15_000,
      method: 'burning_cost',
      seasonsUsed: 10,
    });
    const short = { flood: seasonalRain(9, () => 300) };
    expect(priceQuote({ ...base, perils: ['flood'], history: short }).perils[0]).toMatchObject({
      ratePpm: 30_000,
      method: 'base_rate',
      seasonsUsed: 0,
    });
  });

  it('prices ten seasons of one reading each at the base rate: a season counts only when complete', () => {
    // Read as whole seasons, one dry day each would be ten total droughts: a rate of 1.30.
    const rain = seasonalRain(10, () => 0, 1);
    const oneReadingEach = { drought: rain, flood: rain };
    for (const peril of ['drought', 'flood'] as const) {
      expect(priceQuote({ ...base, perils: [peril], history: oneReadingEach }).perils[0]).toMatchObject({
        ratePpm: peril === 'drought' ? 50_000 : 30_000,
        method: 'base_rate',
        seasonsUsed: 0,
      });
    }
  });

  it('prices at the base rate whatever fell on seasons each read on under 90% of their days', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('drought' as const, 'flood' as const),
        fc.array(
          fc.record({
            rain: fc.integer({ min: 0, max: 4000 }).map((tenths) => tenths / 10),
            days: fc.integer({ min: 1, max: 8 }),
          }),
          { minLength: 10, maxLength: 15 },
        ),
        (peril, seasons) => {
          const rain = seasons.flatMap(({ rain, days }, at) =>
            seasonalRain(at + 1, () => rain, days).filter(({ date }) => date.startsWith(`${2025 - at}-`)),
          );
          expect(priceQuote({ ...base, perils: [peril], history: { [peril]: rain } }).perils[0]).toMatchObject({
            method: 'base_rate',
            seasonsUsed: 0,
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('counts a season read on 90% of its days, and not one read on 80%', () => {
    const nineOfTen = { flood: seasonalRain(10, () => 0, 9) };
    expect(priceQuote({ ...base, perils: ['flood'], history: nineOfTen }).perils[0]).toMatchObject({
      method: 'burning_cost',
      seasonsUsed: 10,
    });
    const eightOfTen = { flood: seasonalRain(10, () => 0, 8) };
    expect(priceQuote({ ...base, perils: ['flood'], history: eightOfTen }).perils[0]).toMatchObject({
      method: 'base_rate',
      seasonsUsed: 0,
    });
  });

  it('counts only seasons with a reading of the peril’s own data', () => {
    // Drought and flood share the field's rainfall; storm reads wind, of which there is none.
    const rain = seasonalRain(12, () => 0);
    const history = { drought: rain, flood: rain };
    expect(priceQuote({ ...base, perils: ['storm'], history }).perils[0]).toMatchObject({ method: 'base_rate' });
  });

  it('takes the deepest point of a season for the 30-day NDVI mean, which can recover', () => {
    const longTerm = { start: '2026-04-01', end: '2026-06-30' };
    // Each past season: 30 days at 0.25 (severity 0.5) in April, then a green recovery.
    const ndvi = Array.from({ length: 10 }, (_, at) =>
      Array.from({ length: 91 }, (__, day) => ({
        date: new Date(Date.UTC(2025 - at, 3, 1 + day)).toISOString().slice(0, 10),
        value: day < 30 ? 0.25 : 0.8,
        revision: 1,
      })),
    ).flat();
    const [stress] = priceQuote({
      ...base,
      term: longTerm,
      perils: ['vegetation_stress'],
      history: { vegetation_stress: ndvi },
    }).perils;
    expect(stress).toMatchObject({ ratePpm: 650_000, method: 'burning_cost', seasonsUsed: 10 });
  });
});

describe('quotes', () => {
  const request = { farm_id: 'farm-1', field_id: 'north', perils: ['drought', 'flood'] as const, sum_insured: 1234.56 };
  const dataSources = ownFieldDataSources('org-1', 'farm-1', 'north', request.perils);
  const ownRainfall = {
    source_id: 'organization-fields:org-1',
    kind: 'field',
    index: 'rainfall_mm',
    location: 'farm-1/north',
  } as const;

  it('prices in the farm currency by default, for one year from today', () => {
    expect(
      quoteCover({
        request: { ...request, perils: [...request.perils] },
        farm: insuredFarm,
        today,
        dataSources,
        history: {},
      }),
    ).toEqual({
      farm_id: 'farm-1',
      field_id: 'north',
      perils: ['drought', 'flood'],
      sum_insured: 1234.56,
      currency: 'KES',
      rate: 0.08,
      premium: 98.76,
      breakdown: {
        drought: { rate: 0.05, premium: 61.73, method: 'base_rate', seasons_used: 0 },
        flood: { rate: 0.03, premium: 37.03, method: 'base_rate', seasons_used: 0 },
      },
      term_start: '2026-03-25',
      term_end: '2027-03-24',
      data_sources: { drought: ownRainfall, flood: ownRainfall },
      platform_version: expect.any(String),
    });
  });

  it('honours the irrigation discount and a given currency', () => {
    const quote = quoteCover({
      request: { ...request, perils: ['drought'], currency: 'JPY', sum_insured: 100_001 },
      farm: irrigatedFarm,
      today,
      dataSources,
      history: {},
    });
    expect(quote).toMatchObject({ currency: 'JPY', rate: 0.03, premium: 3000 });
  });

  it('refuses more decimals than the currency has', () => {
    expect(() =>
      quoteCover({
        request: { ...request, perils: ['flood'], sum_insured: 10.5, currency: 'JPY' },
        farm: insuredFarm,
        today,
        dataSources,
        history: {},
      }),
    ).toThrow(DomainError);
  });
});
