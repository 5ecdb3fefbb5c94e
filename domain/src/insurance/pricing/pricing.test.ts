import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain-error';
import { evolveFarm } from '../../farms/farm';
import { insuredFarm, irrigatedFarm } from '../../testing/insured-farm';
import { addDays } from '../calendar/calendar-date';
import { type CoverTerm, termDays, termYearsBack } from '../calendar/cover-term';
import type { IndexObservation } from '../index-data/index-observation';
import { ownFieldDataSources } from '../index-data/peril-data';
import {
  addRationals as addRates,
  compareRationals as compareRates,
  displayedDecimal as displayedRate,
  multiplyRationals as multiplyRates,
  type Rational as PremiumRate,
  rationalOf as rateOf,
} from '../money/rational';
import { DEFAULT_PRODUCT } from '../term-sheet/builtin';
import type { ProductTerms } from '../term-sheet/product';
import { quoteCover } from '../underwriting/quote';
import { type PricingRequest, priceQuote } from './pricing';

const term = { start: '2026-04-01', end: '2026-04-10' };
const today = '2026-03-25';
/** One year from today, both ends included: 365 days, so the term's exposure is exactly 1. */
const year = { start: today, end: '2027-03-24' };
const base: PricingRequest = { perils: [], sumInsuredMinor: 1_000_000, hasIrrigation: false, term, today, history: {} };
const ratio = (numerator: number, denominator: number): PremiumRate => rateOf(BigInt(numerator), BigInt(denominator));
/** The default product without the uninsurable limit, to look at rates a real cover would be refused at. */
const unlimited: ProductTerms = {
  ...DEFAULT_PRODUCT,
  sheet: { ...DEFAULT_PRODUCT.sheet, pricing: { ...DEFAULT_PRODUCT.sheet.pricing, maximum_rate: 1000 } },
};

/** Past seasons 1 … count of `cover`, each day's reading `valueOn(years, day of the season)`, read on
 *  its first `daysRead` days (all by default: a complete season). */
const pastClimate = (
  cover: CoverTerm,
  count: number,
  valueOn: (years: number, day: number) => number,
  daysRead = Number.POSITIVE_INFINITY,
): IndexObservation[] =>
  Array.from({ length: count }, (_, at) => {
    const season = termYearsBack(cover, at + 1);
    return Array.from({ length: Math.min(daysRead, termDays(season)) }, (__, day) => ({
      date: addDays(season.start, day),
      value: valueOn(at + 1, day),
      revision: 1,
    }));
  }).flat();

/** Ten-day seasons with `rainIn(years)` mm on the first day and then dry. */
const seasonalRain = (count: number, rainIn: (years: number) => number, daysRead = 10): IndexObservation[] =>
  pastClimate(term, count, (years, day) => (day === 0 ? rainIn(years) : 0), daysRead);

const floodRate = (history: IndexObservation[], product: ProductTerms = DEFAULT_PRODUCT) =>
  priceQuote({ ...base, perils: ['flood'], history: { flood: history } }, product).perils[0]!;

const refusal = (price: () => unknown): unknown => {
  try {
    price();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('pricing with base rates', () => {
  it('sums the catalog base rates over a one-year term and splits the premium exactly', () => {
    const pricing = priceQuote({ ...base, term: year, perils: ['drought', 'flood', 'vegetation_stress', 'storm'] });
    expect(pricing.rate).toEqual(ratio(14, 100));
    expect(pricing.premiumMinor).toBe(140_000);
    expect(
      pricing.perils.map((peril) => [peril.peril, displayedRate(peril.rate), peril.premiumMinor, peril.method]),
    ).toEqual([
      ['drought', 0.05, 50_000, 'base_rate'],
      ['flood', 0.03, 30_000, 'base_rate'],
      ['vegetation_stress', 0.04, 40_000, 'base_rate'],
      ['storm', 0.02, 20_000, 'base_rate'],
    ]);
  });

  it('charges a term its exposure, term days / 365: a 7-day cover is not priced like a 366-day one', () => {
    // Reproduces issue 10 (5): both used to cost the annual 0.05.
    const week = priceQuote({ ...base, term: { start: '2026-04-01', end: '2026-04-07' }, perils: ['drought'] });
    const leapYear = priceQuote({ ...base, term: { start: '2027-03-01', end: '2028-02-29' }, perils: ['drought'] });
    // 0.05 × 7 / 365 = 7/7300; × 1,000,000 = 958.90… → 959.
    expect(week.rate).toEqual(ratio(7, 7300));
    expect(week.premiumMinor).toBe(959);
    // 0.05 × 366 / 365 = 366/7300; × 1,000,000 = 50,136.98… → 50,137.
    expect(leapYear.rate).toEqual(ratio(366, 7300));
    expect(leapYear.premiumMinor).toBe(50_137);
  });

  it('takes 40% off drought for an irrigated farm, and only drought', () => {
    const pricing = priceQuote({ ...base, term: year, hasIrrigation: true, perils: ['drought', 'storm'] });
    expect(pricing.perils.map((peril) => displayedRate(peril.rate))).toEqual([0.03, 0.02]);
  });

  it('rounds the premium half-up once, from the exact rate', () => {
    // Storm over one year, 0.02: 50 × 0.02 = 1; 25 × 0.02 = 0.5 → 1 (half-up); 74 × 0.02 = 1.48 → 1.
    expect(priceQuote({ ...base, term: year, sumInsuredMinor: 50, perils: ['storm'] }).premiumMinor).toBe(1);
    expect(priceQuote({ ...base, term: year, sumInsuredMinor: 25, perils: ['storm'] }).premiumMinor).toBe(1);
    expect(priceQuote({ ...base, term: year, sumInsuredMinor: 74, perils: ['storm'] }).premiumMinor).toBe(1);
    // Drought over 10 days is 0.05 × 10/365 = 1/730 exactly: 3,650,000 × 1/730 = 5,000, where the rate
    // first rounded to millionths (0.001370) would have charged 5,000.5 → 5,001.
    expect(priceQuote({ ...base, sumInsuredMinor: 3_650_000, perils: ['drought'] }).premiumMinor).toBe(5_000);
  });

  it('refuses a premium that rounds to less than one minor unit: USD 0.01 insured', () => {
    // Reproduces issue 10 (5): 1 cent × 0.05 = 0.05 cent used to be a premium of 0.
    const error = refusal(() => priceQuote({ ...base, term: year, sumInsuredMinor: 1, perils: ['drought'] }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ reason: 'rejected', code: 'premium_too_small' });
  });

  it('per-peril premiums add up exactly to the premium', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000_000, max: 100_000_000_000_000 }),
        fc.uniqueArray(fc.constantFrom('drought', 'flood', 'vegetation_stress', 'storm' as const), { minLength: 1 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 365 }),
        (sumInsuredMinor, perils, hasIrrigation, days) => {
          const cover = { start: term.start, end: addDays(term.start, days) };
          const pricing = priceQuote({ ...base, term: cover, sumInsuredMinor, perils, hasIrrigation });
          expect(pricing.perils.reduce((sum, peril) => sum + peril.premiumMinor, 0)).toBe(pricing.premiumMinor);
        },
      ),
    );
  });
});

describe('burning-cost pricing, blended by credibility', () => {
  it('gives identical climates nearly the same rate with 9 and 10 seasons: no cliff', () => {
    // Reproduces issue 10 (5): 3 mm of rain a day never meets a drought, and the rate used to jump from
    // the base 0.05 at 9 seasons to the floor 0.025 at 10. Now Z = n / (n + 10) and the burning cost 0:
    // 9 seasons: (10/19) × 0.05 = 1/38 = 0.026316; 10 seasons: (10/20) × 0.05 = 0.025 (the floor).
    const price = (seasons: number) =>
      priceQuote({
        ...base,
        term: year,
        perils: ['drought'],
        history: { drought: pastClimate(year, seasons, () => 3) },
      }).perils[0]!;
    expect(price(9)).toMatchObject({ rate: ratio(1, 38), method: 'burning_cost', seasonsUsed: 9 });
    expect(price(9).credibility).toEqual(ratio(9, 19));
    expect(price(10)).toMatchObject({ rate: ratio(1, 40), method: 'burning_cost', seasonsUsed: 10 });
    expect(displayedRate(price(10).credibility)).toBe(0.5);
  });

  it('blends the mean payout fraction × 1.3 with the base rate by Z = n / (n + 10)', () => {
    // Seasons 1-6 have a 225 mm day (flood severity 0.5), seasons 7-12 a dry day: mean 0.25, × 1.3 =
    // 0.325. Z = 12/22; base rate over the 10-day term 0.03 × 10/365 = 3/3650.
    // Rate = 12/22 × 0.325 + 10/22 × 3/3650 = 3.9/22 + 3/(22 × 365) = 1426.5/8030 = 2853/16060.
    const flood = floodRate(seasonalRain(12, (years) => (years <= 6 ? 225 : 0)));
    expect(flood).toMatchObject({ method: 'burning_cost', seasonsUsed: 12, credibility: ratio(6, 11) });
    expect(flood.rate).toEqual(ratio(2853, 16060));
    // 1,000,000 × 2853/16060 = 177,646.32… → 177,646.
    expect(flood.premiumMinor).toBe(177_646);
  });

  it('is floored at half the term’s base rate', () => {
    // 40 dry seasons: Z = 40/50, blended 10/50 × base = 0.2 × base, below the floor 0.5 × base.
    expect(floodRate(seasonalRain(40, () => 0)).rate).toEqual(multiplyRates(ratio(3, 3650), ratio(1, 2)));
  });

  it('refuses a cover whose rate reaches 0.5 as uninsurable', () => {
    // Ten seasons of total flood losses: 10/20 × 1.3 + 10/20 × 3/3650 = 0.650411 ≥ 0.5. Rates had no cap.
    const error = refusal(() => floodRate(seasonalRain(10, () => 300)));
    expect(error).toMatchObject({ reason: 'rejected', code: 'uninsurable' });
    // The limit is the catalog's: lifted, the same cover prices at that rate.
    expect(
      displayedRate(
        floodRate(
          seasonalRain(10, () => 300),
          unlimited,
        ).rate,
      ),
    ).toBe(0.650411);
  });

  it('prices ten seasons of one reading each at the base rate: a season counts only when complete', () => {
    // Read as whole seasons, one dry day each would be ten total droughts.
    const rain = seasonalRain(10, () => 0, 1);
    const oneReadingEach = { drought: rain, flood: rain };
    for (const peril of ['drought', 'flood'] as const) {
      expect(priceQuote({ ...base, perils: [peril], history: oneReadingEach }).perils[0]).toMatchObject({
        rate: peril === 'drought' ? ratio(5, 3650) : ratio(3, 3650),
        method: 'base_rate',
        seasonsUsed: 0,
        credibility: ratio(0, 1),
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
    expect(floodRate(seasonalRain(10, () => 0, 9))).toMatchObject({ method: 'burning_cost', seasonsUsed: 10 });
    expect(floodRate(seasonalRain(10, () => 0, 8))).toMatchObject({ method: 'base_rate', seasonsUsed: 0 });
  });

  it('counts only seasons with a reading of the peril’s own data', () => {
    // Drought and flood share the field's rainfall; storm reads wind, of which there is none.
    const rain = seasonalRain(12, () => 0);
    const history = { drought: rain, flood: rain };
    expect(priceQuote({ ...base, perils: ['storm'], history }).perils[0]).toMatchObject({ method: 'base_rate' });
  });

  it('takes the deepest point of a season for the 30-day NDVI mean, which can recover', () => {
    const longTerm = { start: '2026-04-01', end: '2026-06-30' };
    // Each past season: 30 days at 0.25 (severity 0.5) in April, then a green recovery. Burning cost
    // 0.5 × 1.3 = 0.65, Z = 10/20; base 0.04 × 91/365: rate = 0.325 + 0.5 × 3.64/365 = 0.329986…
    const ndvi = pastClimate(longTerm, 10, (_, day) => (day < 30 ? 0.25 : 0.8));
    const [stress] = priceQuote(
      { ...base, term: longTerm, perils: ['vegetation_stress'], history: { vegetation_stress: ndvi } },
      unlimited,
    ).perils;
    expect(stress).toMatchObject({ method: 'burning_cost', seasonsUsed: 10 });
    expect(stress!.rate).toEqual(addRates(ratio(325, 1000), multiplyRates(ratio(1, 2), ratio(364, 36500))));
  });

  it('judges each past season of a leap term on its own days: exactly 2 mm a day is no loss', () => {
    // Reproduces issue 10 (7): a 366-day term freezes 732 mm, but its past seasons have 365 days, whose
    // 730 mm used to read as a breach of 2/439.2 each. On the season's own 730 mm it is exactly at the
    // threshold: severity 0, so the burning cost is 0 and the rate that of a wet climate.
    const leapTerm = { start: '2027-03-01', end: '2028-02-29' };
    const leapToday = '2027-03-01';
    const drought = (mmPerDay: number) =>
      priceQuote({
        ...base,
        term: leapTerm,
        today: leapToday,
        perils: ['drought'],
        history: { drought: pastClimate(leapTerm, 10, () => mmPerDay) },
      }).perils[0]!;
    expect(drought(2).seasonsUsed).toBe(10);
    expect(drought(2).rate).toEqual(drought(3).rate);
  });
});

describe('pricing properties', () => {
  const severityPercent = fc.integer({ min: 0, max: 100 });
  /** Flood seasons of severity `percent`%: a 150 + 1.5 × percent mm day (0: a dry season). */
  const floodSeasons = (count: number, percent: number) =>
    seasonalRain(count, () => (percent === 0 ? 0 : 150 + 1.5 * percent));
  const floodBase = ratio(3, 3650);

  it('never charges the sum insured or more for a cover it accepts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000_000 }),
        fc.uniqueArray(fc.constantFrom('drought', 'flood', 'vegetation_stress', 'storm' as const), { minLength: 1 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 20 }),
        severityPercent,
        (sumInsuredMinor, perils, hasIrrigation, seasons, percent) => {
          const rain = floodSeasons(seasons, percent);
          const request = { ...base, sumInsuredMinor, perils, hasIrrigation, history: { drought: rain, flood: rain } };
          const error = refusal(() => priceQuote(request));
          if (error !== undefined) {
            expect(error).toBeInstanceOf(DomainError);
            expect(['uninsurable', 'premium_too_small']).toContain((error as DomainError).code);
            return;
          }
          const pricing = priceQuote(request);
          expect(pricing.premiumMinor).toBeGreaterThanOrEqual(1);
          expect(pricing.premiumMinor).toBeLessThan(sumInsuredMinor);
          expect(compareRates(pricing.rate, ratio(1, 2))).toBeLessThan(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('moves the rate continuously and monotonically with the number of seasons', () => {
    fc.assert(
      fc.property(severityPercent, (percent) => {
        // The loaded burning cost of every season: percent% × 1.3.
        const loaded = ratio(13 * percent, 1000);
        const gap = compareRates(loaded, floodBase);
        let previous = floodRate(floodSeasons(0, percent), unlimited).rate;
        expect(previous).toEqual(floodBase);
        for (let n = 1; n <= 25; n += 1) {
          const rate = floodRate(floodSeasons(n, percent), unlimited).rate;
          // Towards the burning cost, never away from it: up when it lies above the base rate, down (to
          // the floor at most) below, not at all when the two are equal.
          const moved = compareRates(rate, previous);
          expect(gap === 0 ? moved === 0 : moved * gap >= 0).toBe(true);
          // One more season moves the rate by at most |burning cost − base| × 10 / ((n − 1 + 10)(n + 10)):
          // 1/38 of the gap from 9 to 10 seasons.
          const step = gap >= 0 ? addRates(rate, negate(previous)) : addRates(previous, negate(rate));
          const span = gap >= 0 ? addRates(loaded, negate(floodBase)) : addRates(floodBase, negate(loaded));
          expect(compareRates(step, multiplyRates(span, ratio(10, (n + 9) * (n + 10))))).toBeLessThanOrEqual(0);
          previous = rate;
        }
      }),
      { numRuns: 40 },
    );
  });
});

const negate = (rate: PremiumRate): PremiumRate => ({ numerator: -rate.numerator, denominator: rate.denominator });

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
        drought: { rate: 0.05, premium: 61.73, method: 'base_rate', seasons_used: 0, credibility: 0 },
        flood: { rate: 0.03, premium: 37.03, method: 'base_rate', seasons_used: 0, credibility: 0 },
      },
      term_start: '2026-03-25',
      term_end: '2027-03-24',
      data_sources: { drought: ownRainfall, flood: ownRainfall },
      product: DEFAULT_PRODUCT.ref,
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

  describe('a product insured per exposure unit (TERM-SHEETS.md §5, H5 and H6)', () => {
    const perAcre: ProductTerms = {
      ref: { product_id: 'prf-27663', version: 1, digest: `sha256:${'0'.repeat(64)}` },
      sheet: {
        ...DEFAULT_PRODUCT.sheet,
        schema: 'cropcover.term-sheet/2',
        season: undefined,
        amounts: { unit: 'per_exposure_unit', currency: 'USD', exposure_unit: 'acre', value_minor: 1_836 },
        pricing: {
          method: 'fixed_rate',
          rate: 0.2252,
          premium_shares: [
            { payer: 'farmer', share: 0.49 },
            { payer: 'government', share: 0.51 },
          ],
        },
        covers: DEFAULT_PRODUCT.sheet.covers.filter((cover) => cover.peril === 'drought'),
      },
    };
    const quoteFor = (acres: number | undefined, sumInsured: number) =>
      quoteCover({
        request: { ...request, perils: ['drought'], sum_insured: sumInsured, exposure_units: acres },
        farm: insuredFarm,
        today,
        dataSources,
        history: {},
        product: perAcre,
      });

    it('H6: 1 acre insures 18.36 USD at 4.13, the government paying 2.11 and the farmer 2.02', () => {
      expect(quoteFor(1, 18.36)).toMatchObject({
        sum_insured: 18.36,
        currency: 'USD',
        exposure_units: 1,
        premium: 4.13,
        premium_shares: [
          { payer: 'farmer', share: 0.49, premium: 2.02 },
          { payer: 'government', share: 0.51, premium: 2.11 },
        ],
      });
    });

    it('H5: 100 acres insure 183,600 minor units; 2.5 acres, 45.90', () => {
      expect(quoteFor(100, 1_836)).toMatchObject({ sum_insured: 1_836 });
      expect(quoteFor(2.5, 45.9)).toMatchObject({ sum_insured: 45.9 });
    });

    it('refuses no exposure units, a sum insured they do not make, and exposure units on another product', () => {
      expect(() => quoteFor(undefined, 18.36)).toThrow(expect.objectContaining({ code: 'exposure_unit_missing' }));
      expect(() => quoteFor(1, 20)).toThrow(
        expect.objectContaining({ code: 'invalid_amount', message: expect.stringContaining('insure 18.36') }),
      );
      expect(() =>
        quoteCover({
          request: { ...request, perils: ['drought'], exposure_units: 3 },
          farm: insuredFarm,
          today,
          dataSources,
          history: {},
        }),
      ).toThrow(expect.objectContaining({ code: 'invalid_amount' }));
    });
  });

  it('refuses a farm currency no longer active unless the request names an active one', () => {
    // Registered while validation trusted the runtime's ICU, which took the withdrawn kuna.
    const croatian = evolveFarm(insuredFarm, {
      type: 'FarmUpdated',
      data: { farm_id: 'farm-1', changes: { currency: 'HRK' }, updated_at: '2026-01-03T00:00:00.000Z' },
    });
    const quoteOn = (currency?: string) =>
      quoteCover({
        request: { ...request, perils: ['flood'], currency },
        farm: croatian,
        today,
        dataSources,
        history: {},
      });
    expect(() => quoteOn()).toThrow(expect.objectContaining({ reason: 'rejected', code: 'invalid_currency' }));
    expect(quoteOn('EUR')).toMatchObject({ currency: 'EUR', premium: 37.04 });
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
