import type { BreachDeclarable, Comparison, Peril, TriggerAggregation, TriggerTerms } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCompleteSeason, seasonSeverityPpm, triggerLevels } from '../../testing/frozen-trigger';
import { referenceSeasonSeverityPpm } from '../../testing/season-severity.reference';
import { addDays, earlierDate } from '../calendar/calendar-date';
import { termDays } from '../calendar/cover-term';
import { pastSeasons } from '../calendar/seasons';
import type { IndexObservation } from '../index-data/index-observation';
import { seasonsWithReadings } from '../index-data/season-readings';
import { triggerTermsFor } from '../term-sheet/builtin';

const FIRST_DAY = '2017-01-01';
const PERILS: Peril[] = ['drought', 'flood', 'vegetation_stress', 'storm'];

/** A reading value as sensors send them (tenths, thousandths), sometimes a full double to round. */
const readingValue = fc.oneof(
  fc.integer({ min: 0, max: 600 }).map((tenths) => tenths / 10),
  fc.integer({ min: 0, max: 1000 }).map((thousandths) => thousandths / 1000),
  fc.double({ min: -5, max: 80, noNaN: true }),
);

/** Readings over a dense or a sparse stretch of days, in any order, with repeated dates. */
const readingsOver = (spanDays: number): fc.Arbitrary<IndexObservation[]> =>
  fc.array(
    fc.record({
      date: fc.integer({ min: 0, max: spanDays }).map((day) => addDays(FIRST_DAY, day)),
      value: readingValue,
      revision: fc.integer({ min: 1, max: 3 }),
    }),
    { maxLength: 150, size: 'max' },
  );

const history = fc.constantFrom(60, 400, 1500, 3000).chain((spanDays) =>
  fc.record({
    readings: readingsOver(spanDays),
    // Todays inside and after the readings, terms starting about then, so seasons are cut at every edge.
    today: fc.integer({ min: spanDays / 4, max: spanDays + 400 }).map((day) => addDays(FIRST_DAY, day)),
    termOffset: fc.integer({ min: -7, max: 60 }),
    termDays: fc.integer({ min: 1, max: 366 }),
  }),
);

const aggregation: fc.Arbitrary<TriggerAggregation> = fc.oneof(
  fc.constant({ kind: 'sum' as const }),
  fc.integer({ min: 1, max: 10 }).map((days) => ({ kind: 'max_rolling_sum' as const, days })),
  fc.integer({ min: 1, max: 40 }).map((days) => ({ kind: 'mean_of_last_days' as const, days })),
  fc.constant({ kind: 'max' as const }),
);

const declarable: fc.Arbitrary<BreachDeclarable> = fc.oneof(
  fc.constant({ kind: 'any_time' as const }),
  fc.constant({ kind: 'window_closed' as const }),
  fc.integer({ min: 1, max: 60 }).map((days) => ({ kind: 'after_term_days' as const, days })),
);

/** Any trigger the terms allow, its levels near what its aggregate of `readingValue`s can reach. */
const triggerTerms = (peril: Peril, days: number): fc.Arbitrary<TriggerTerms> =>
  fc
    .record({
      aggregation,
      declarable,
      comparison: fc.constantFrom<Comparison>('lte', 'gte'),
      threshold: fc.integer({ min: 0, max: 400 }),
      exit: fc.integer({ min: 0, max: 400 }),
      // From a coverage sparse histories meet to the catalog's 90%, so both sides of the rule are drawn.
      min_coverage: fc.oneof(
        fc.integer({ min: 1, max: 1000 }).map((permille) => permille / 1000),
        fc.constant(0.9),
      ),
    })
    .map(({ aggregation: kind, threshold, exit, ...rest }) => {
      const reach = kind.kind === 'sum' ? days : kind.kind === 'max_rolling_sum' ? kind.days : 1;
      return {
        ...triggerTermsFor(peril, { start: FIRST_DAY, end: FIRST_DAY }),
        ...rest,
        aggregation: kind,
        threshold: (threshold * reach) / 10,
        exit: (exit * reach) / 10,
      };
    });

const referenceSeverities = (
  terms: TriggerTerms,
  readings: readonly IndexObservation[],
  term: { start: string; end: string },
  today: string,
): number[] => {
  const earliest = readings.reduce<string | undefined>(
    (first, { date }) => (first === undefined ? date : earlierDate(first, date)),
    undefined,
  );
  return pastSeasons(term, today, earliest).flatMap(
    (season) => referenceSeasonSeverityPpm(terms, readings, season) ?? [],
  );
};

const severities = (
  terms: TriggerTerms,
  readings: readonly IndexObservation[],
  term: { start: string; end: string },
  today: string,
): number[] =>
  seasonsWithReadings(term, today, readings)
    .filter((season) => isCompleteSeason(triggerLevels(terms), season))
    .map((season) => seasonSeverityPpm(terms, season));

describe('season severities in one pass', () => {
  it('are exactly what evaluating the trigger on every day of every season gives', () => {
    fc.assert(
      fc.property(
        history.chain((drawn) => {
          const start = addDays(drawn.today, drawn.termOffset);
          const term = { start, end: addDays(start, drawn.termDays - 1) };
          return fc.record({
            drawn: fc.constant(drawn),
            term: fc.constant(term),
            terms: fc.tuple(...PERILS.map((peril) => triggerTerms(peril, termDays(term)))),
          });
        }),
        ({ drawn, term, terms }) => {
          for (const peril of terms) {
            expect(severities(peril, drawn.readings, term, drawn.today)).toEqual(
              referenceSeverities(peril, drawn.readings, term, drawn.today),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('are exactly the reference for the catalog triggers over daily readings with gaps', () => {
    /** Readings of each peril's index reach its catalog trigger now and then. */
    const scale = { drought: 5, flood: 70, vegetation_stress: 0.7, storm: 45 } as Record<Peril, number>;
    fc.assert(
      fc.property(
        fc.constantFrom(...PERILS),
        // About one day in twenty missing: most seasons are complete enough to count, some are not.
        fc.array(fc.option(fc.integer({ min: 0, max: 1000 }), { freq: 20 }), {
          minLength: 100,
          maxLength: 1100,
          size: 'max',
        }),
        fc.integer({ min: 20, max: 200 }),
        (peril, daily, days) => {
          const readings = daily.flatMap((part, day) =>
            part === null
              ? []
              : [{ date: addDays(FIRST_DAY, day), value: Math.round(part * scale[peril]) / 1000, revision: 1 }],
          );
          const today = addDays(FIRST_DAY, daily.length);
          const term = { start: today, end: addDays(today, days - 1) };
          const terms = triggerTermsFor(peril, term);
          expect(severities(terms, readings, term, today)).toEqual(referenceSeverities(terms, readings, term, today));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the later of two readings of one date, as the upsert does', () => {
    const term = { start: '2026-04-01', end: '2026-04-05' };
    const flood = { ...triggerTermsFor('flood', term), threshold: 10, exit: 20 };
    const readings = [
      { date: '2025-04-02', value: 20, revision: 1 },
      { date: '2025-04-01', value: 0, revision: 1 },
      { date: '2025-04-02', value: 15, revision: 2 },
    ];
    const [season] = seasonsWithReadings(term, '2026-03-01', readings);
    expect(season?.readings).toEqual([
      [season!.startDay, 0n],
      [season!.startDay + 1, 15_000_000n],
    ]);
    expect(seasonSeverityPpm(flood, season!)).toBe(500_000);
  });
});
