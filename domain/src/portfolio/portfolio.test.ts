import type { Peril, PerilDataSource, PolicyDataSources } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import { termYearsBack } from '../insurance/calendar/cover-term';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { toMinorUnits } from '../insurance/money/minor-units';
import { backtestPolicy } from '../policies/backtest-policy';
import type { IssuedPolicy } from '../policies/policy';
import { zoneKey } from '../programmes/accumulation-zone';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { dailyReadings, reading } from '../testing/readings';
import { AsIfBook } from './as-if-book';
import { asIfPolicyOf, evaluateSeasonCover } from './default-product-covers';
import { lossFigures, lossStatistics } from './loss-statistics';
import { portfolioBacktestResult } from './portfolio-backtest';

const rainfallCell = (cell: number): PerilDataSource => ({
  source_id: 'chirps',
  kind: 'grid',
  index: 'rainfall_mm',
  location: `-1.${cell}0,36.80`,
});
const windStation = (station: number): PerilDataSource => ({
  source_id: 'kmd',
  kind: 'station',
  index: 'wind_speed_ms',
  location: `KMD-${station}`,
});

/** A policy issued as the command side issues it, reading the given data per peril. */
const issued = (
  policyId: string,
  sumInsured: number,
  dataSources: PolicyDataSources,
  term = { start: '2026-04-01', end: '2026-06-29' },
): IssuedPolicy =>
  issuedPolicyAfter(
    policyIssuedEvents({
      policyId,
      perils: Object.keys(dataSources) as Peril[],
      sumInsured,
      termStart: term.start,
      termEnd: term.end,
      dataSources,
    }),
  );

const book = (
  policies: readonly IssuedPolicy[],
  seasons: number,
  readings: ReadonlyMap<string, readonly IndexObservation[]>,
  perils?: readonly Peril[],
) => {
  const asIf = new AsIfBook(
    policies.flatMap((policy) => asIfPolicyOf(policy, perils) ?? []),
    seasons,
    evaluateSeasonCover,
  );
  for (const { zone, index } of asIf.zonesToRead()) asIf.readZone(zone, index, readings.get(zoneKey(zone)) ?? []);
  return asIf.outcome();
};

describe('each policy rounded as its own backtest (acceptance test 6)', () => {
  it('three policies of 100,001 at f = 0.5 lose 150,003 in the season, not 150,002', () => {
    // Five days of 45 mm: a 5-day total of 225 mm, half way from the flood trigger (150) to its exit (300).
    const flood = [0, 1, 2, 3, 4].map((day) => reading(addDays('2025-05-01', day), 45));
    const policies = ['p-1', 'p-2', 'p-3'].map((policyId) => issued(policyId, 1_000.01, { flood: rainfallCell(1) }));
    const outcome = book(policies, 1, new Map([[zoneKey(rainfallCell(1)), flood]]));
    expect(outcome.seasons[0]).toMatchObject({ yearsBack: 1, grossMinor: 150_003, payingPolicies: 3, payingZones: 1 });
    expect(outcome.totalSumInsuredMinor).toBe(300_003);
  });
});

describe('a zone holding several indices (a field’s own readings)', () => {
  it('evaluates each cover on its own index, as the policy’s backtest does', () => {
    const field = { source_id: 'organization-fields:org-1', kind: 'field', location: 'farm-1/north' } as const;
    const rain = dailyReadings('2025-04-01', new Array(90).fill(1.6));
    const ndvi = dailyReadings('2025-04-01', new Array(90).fill(0.3));
    const policy = issued('p-1', 1_000, {
      drought: { ...field, index: 'rainfall_mm' },
      vegetation_stress: { ...field, index: 'ndvi' },
    });
    const asIf = new AsIfBook([asIfPolicyOf(policy)!], 1, evaluateSeasonCover);
    for (const { zone, index } of asIf.zonesToRead()) asIf.readZone(zone, index, index === 'ndvi' ? ndvi : rain);
    const own = backtestPolicy(
      {
        actor: insurer,
        asOf: '2025-06-29',
        readings: { drought: rain, vegetation_stress: ndvi },
        now: new Date('2026-01-01T00:00:00Z'),
      },
      policy,
    );
    // Drought (180 − 144) / 108 and vegetation stress (0.35 − 0.3) / 0.2 of 100,000 minor units.
    expect(toMinorUnits(own.total_payout, 'KES')).toBe(33_333 + 25_000);
    expect(asIf.outcome().seasons[0]!.grossMinor).toBe(33_333 + 25_000);
    expect(asIf.outcome().zones).toHaveLength(1);
  });
});

describe('portfolio statistics (acceptance test 7)', () => {
  const seasons = [0, 0, 120_000, 0, 450_000, 30_000, 0, 0, 900_000, 60_000];

  it('AAL 156,000, loss cost 0.052, 1-in-10 900,000, 1-in-100 not in ten seasons', () => {
    const statistics = lossStatistics(lossFigures(seasons, 3_000_000), 'JPY');
    expect(statistics).toMatchObject({
      seasons: 10,
      average_annual_loss: 156_000,
      loss_cost: 0.052,
      maximum: 900_000,
      standard_deviation: 295_905,
    });
    expect(statistics.return_periods).toEqual([
      { years: 2, loss: 30_000, empirical_return_period: 2 },
      { years: 5, loss: 450_000, empirical_return_period: 5 },
      { years: 10, loss: 900_000, empirical_return_period: 10 },
      { years: 20, loss: null, reason: 'insufficient_seasons' },
      { years: 25, loss: null, reason: 'insufficient_seasons' },
      { years: 50, loss: null, reason: 'insufficient_seasons' },
      { years: 100, loss: null, reason: 'insufficient_seasons' },
      { years: 200, loss: null, reason: 'insufficient_seasons' },
      { years: 250, loss: null, reason: 'insufficient_seasons' },
    ]);
  });

  it('reads a return period that does not divide N from the k = ⌊N / T⌋-th largest, and names its N / k', () => {
    const figures = lossFigures([5, 1, 4, 2, 3, 9, 8], 100);
    expect(figures.returnPeriods.slice(0, 2)).toEqual([
      { years: 2, lossMinor: 5, empiricalReturnPeriod: 7 / 3 },
      { years: 5, lossMinor: 9, empiricalReturnPeriod: 7 },
    ]);
    expect(lossFigures([7], 100).standardDeviationMinor).toBeNull();
  });
});

describe('the result a backtest job shows', () => {
  it('gives gross and net per season, with treaties applied as to one period, and each zone’s worst season', () => {
    const flood = [0, 1, 2, 3, 4].map((day) => reading(addDays('2024-05-01', day), 45));
    const outcome = book(
      [issued('p-1', 1_000, { flood: rainfallCell(1) })],
      3,
      new Map([[zoneKey(rainfallCell(1)), flood]]),
    );
    const result = portfolioBacktestResult(
      outcome,
      { treaties: [{ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 }], grossPremiumMinor: 3_000 },
      'KES',
      { programme_revision: 3, readings: 5, digest: 'sha256:inputs' },
    );
    expect(result.seasons.map(({ years_back, gross, net, complete }) => [years_back, gross, net, complete])).toEqual([
      [1, 0, 0, false],
      [2, 500, 125, false],
      [3, 0, 0, false],
    ]);
    expect(result.zones).toEqual([
      {
        source_id: 'chirps',
        location: '-1.10,36.80',
        sum_insured: 1_000,
        average_annual_loss: 166.67,
        loss_cost: 0.166667,
        paying_seasons: 1,
        worst_season: { years_back: 2, loss: 500 },
        triggered_seasons: [2],
      },
    ]);
    expect(result.inputs).toEqual({ programme_revision: 3, readings: 5, digest: 'sha256:inputs' });
  });
});

describe('a backtest of some perils', () => {
  it('counts only those covers, and leaves out policies with none of them', () => {
    const flood = [0, 1, 2, 3, 4].map((day) => reading(addDays('2025-05-01', day), 45));
    const readings = new Map([[zoneKey(rainfallCell(1)), flood]]);
    const policies = [
      issued('p-1', 1_000, { flood: rainfallCell(1), drought: rainfallCell(1) }),
      issued('p-2', 2_000, { drought: rainfallCell(1) }),
    ];
    const floodOnly = book(policies, 1, readings, ['flood']);
    expect(floodOnly).toMatchObject({ policies: 1, totalSumInsuredMinor: 100_000 });
    expect(floodOnly.seasons[0]!.grossMinor).toBe(50_000);
    expect(book(policies, 1, readings, ['storm'])).toMatchObject({ policies: 0, totalSumInsuredMinor: 0 });
  });
});

/** A deterministic stream of numbers in [0, 1) from a seed (mulberry32). */
const randomFrom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

describe('the as-if season equals the sum of the policies’ own backtests (property)', () => {
  const seasons = 4;
  const terms = [
    { start: '2026-03-01', end: '2026-05-31' },
    { start: '2026-04-01', end: '2026-06-29' },
    { start: '2026-02-15', end: '2026-03-20' },
  ];

  it('over random books of 200 policies in 5 zones, to the minor unit', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const random = randomFrom(seed);
        const pick = <Item>(items: readonly Item[]) => items[Math.floor(random() * items.length)]!;
        const readings = new Map<string, IndexObservation[]>();
        for (let zone = 0; zone < 5; zone += 1) {
          const wet = random() * 60;
          const windy = 10 + random() * 30;
          const gappy = random() < 0.3;
          const rain: IndexObservation[] = [];
          const wind: IndexObservation[] = [];
          for (let day = 0; day < 5 * 366; day += 1) {
            const date = addDays('2021-01-01', day);
            if (gappy && random() < 0.2) continue;
            rain.push(reading(date, Math.round(random() * random() * wet * 10) / 10));
            wind.push(reading(date, Math.round(random() * windy * 10) / 10));
          }
          readings.set(zoneKey(rainfallCell(zone)), rain);
          readings.set(zoneKey(windStation(zone)), wind);
        }
        const policies = Array.from({ length: 200 }, (_, at) => {
          const sources: PolicyDataSources = {};
          if (random() < 0.6) sources.drought = rainfallCell(Math.floor(random() * 5));
          if (random() < 0.6 || Object.keys(sources).length === 0)
            sources.flood = rainfallCell(Math.floor(random() * 5));
          if (random() < 0.5) sources.storm = windStation(Math.floor(random() * 5));
          return issued(`p-${at}`, pick([1_000.01, 2_500, 333.33, 10_000.07, 77.77]), sources, pick(terms));
        });
        const outcome = book(policies, seasons, readings);
        for (let years = 1; years <= seasons; years += 1) {
          const backtests = policies.map((policy) => {
            const season = termYearsBack({ start: policy.issued.term_start, end: policy.issued.term_end }, years);
            const history = Object.fromEntries(
              policy.perils.map((cover) => [cover.terms.peril, readings.get(zoneKey(cover.data)) ?? []]),
            );
            const result = backtestPolicy(
              { actor: insurer, asOf: season.end, readings: history, now: new Date('2026-01-01T00:00:00Z') },
              policy,
            );
            return toMinorUnits(result.total_payout, 'KES');
          });
          expect(outcome.seasons[years - 1]!.grossMinor).toBe(backtests.reduce((sum, paid) => sum + paid, 0));
          expect(outcome.seasons[years - 1]!.payingPolicies).toBe(backtests.filter((paid) => paid > 0).length);
        }
        const zoneTotal = outcome.zones.reduce((sum, zone) => sum + zone.lossesMinor.reduce((a, b) => a + b, 0), 0);
        expect(zoneTotal).toBe(outcome.seasons.reduce((sum, season) => sum + season.grossMinor, 0));
      }),
      { numRuns: 8 },
    );
  });
});
