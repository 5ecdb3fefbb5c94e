import type { Peril } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateTrigger } from '../../testing/frozen-trigger';
import { addDays } from '../calendar/calendar-date';
import type { IndexObservation } from '../index-data/index-observation';
import { triggerTermsFor } from './builtin';

// A window with gaps against every way the gaps could really have been: whatever fell on the missing
// days (within the reading bounds), the gappy evaluation never breaches where the truth would not, never
// pays more, and never reads a missing day as less than it may have been — in particular not as zero.

const term = { start: '2026-04-01', end: '2026-04-30' };
const DAYS = 30;

/** Each day of the term: its true value, and whether a reading of it reached us. */
const daysUpTo = (bound: number) =>
  fc.array(
    fc.record({
      value: fc.integer({ min: 0, max: Math.round(bound * 100) }).map((cents) => cents / 100),
      read: fc.boolean(),
    }),
    { minLength: DAYS, maxLength: DAYS },
  );

/** A season near the trigger, or one anywhere within the reading's bounds. */
const season = (low: number, max: number) => fc.oneof(daysUpTo(low), daysUpTo(max));

/** The readings of the days, each on its own date; only those read when `readOnly`. */
const observations = (days: readonly { value: number; read: boolean }[], readOnly = false): IndexObservation[] =>
  days.flatMap(({ value, read }, at) =>
    readOnly && !read ? [] : [{ date: addDays(term.start, at), value, revision: 1 }],
  );

/** Days mostly read, sometimes barely: both sides of the 90% line are drawn. */
const gappySeason = (low: number, max: number) =>
  fc
    .tuple(season(low, max), fc.integer({ min: 0, max: 6 }))
    .map(([days, dropped]) => days.map((day, at) => ({ ...day, read: day.read || at >= dropped * 5 })));

const windowAggregates: { peril: Peril; low: number; max: number }[] = [
  { peril: 'drought', low: 3, max: 1000 },
  { peril: 'vegetation_stress', low: 0.4, max: 1 },
];

describe('a sum or mean over a window with gaps', () => {
  for (const { peril, low, max } of windowAggregates) {
    const terms = triggerTermsFor(peril, term);

    it(`${peril}: a missing day never creates a breach, deepens one or is read as less than it may have been`, () => {
      fc.assert(
        fc.property(gappySeason(low, max), (days) => {
          const truth = evaluateTrigger(terms, observations(days), term.end, term);
          const gappy = evaluateTrigger(terms, observations(days, true), term.end, term);
          if (gappy.observedValue === null) return;
          expect(truth.observedValue).not.toBeNull();
          expect(gappy.observedValue).toBeGreaterThanOrEqual(truth.observedValue!);
          if (gappy.breached) expect(truth.breached).toBe(true);
          expect(gappy.severityPpm).toBeLessThanOrEqual(truth.severityPpm);
        }),
        { numRuns: 500 },
      );
    });

    it(`${peril}: a missing day is never read as zero: it weighs more than a reading of zero would`, () => {
      fc.assert(
        fc.property(gappySeason(low, max), (days) => {
          const zeroFilled = days.map((day) => (day.read ? day : { value: 0, read: true }));
          const gappy = evaluateTrigger(terms, observations(days, true), term.end, term);
          const asZero = evaluateTrigger(terms, observations(zeroFilled), term.end, term);
          if (gappy.observedValue === null) return;
          expect(asZero.observedValue).not.toBeNull();
          // Both triggers breach low, so a missing day must count for more than a zero reading does.
          if (days.some((day) => !day.read)) expect(gappy.observedValue).toBeGreaterThan(asZero.observedValue!);
          else expect(gappy.observedValue).toBe(asZero.observedValue);
          if (gappy.breached) expect(asZero.breached).toBe(true);
          expect(gappy.severityPpm).toBeLessThanOrEqual(asZero.severityPpm);
        }),
        { numRuns: 500 },
      );
    });

    it(`${peril}: a window read on under 90% of its days is skipped, never evaluated`, () => {
      fc.assert(
        fc.property(gappySeason(low, max), (days) => {
          const read = days.filter((day) => day.read);
          const outcome = evaluateTrigger(terms, observations(days, true), term.end, term);
          expect(outcome.coverage).toEqual({ daysWithReading: read.length, daysInWindow: DAYS });
          if (read.length * 10 >= DAYS * 9) {
            expect(outcome.skipReason).toBeNull();
          } else {
            expect(outcome).toMatchObject({
              observedValue: null,
              breached: false,
              severityPpm: 0,
              skipReason: read.length === 0 ? 'no_data' : 'incomplete_data',
            });
          }
        }),
        { numRuns: 500 },
      );
    });
  }
});

describe('a maximum over a window with gaps', () => {
  for (const { peril, low, max } of [
    { peril: 'flood' as const, low: 40, max: 1000 },
    { peril: 'storm' as const, low: 30, max: 120 },
  ]) {
    const terms = triggerTermsFor(peril, term);

    it(`${peril}: is evaluated on the days present, reports their coverage, and a gap never creates a breach`, () => {
      fc.assert(
        fc.property(season(low, max), (days) => {
          const read = days.filter((day) => day.read);
          const truth = evaluateTrigger(terms, observations(days), term.end, term);
          const gappy = evaluateTrigger(terms, observations(days, true), term.end, term);
          expect(gappy.coverage).toEqual({ daysWithReading: read.length, daysInWindow: DAYS });
          expect(gappy.skipReason).toBe(read.length === 0 ? 'no_data' : null);
          if (gappy.breached) expect(truth.breached).toBe(true);
          expect(gappy.severityPpm).toBeLessThanOrEqual(truth.severityPpm);
        }),
        { numRuns: 300 },
      );
    });
  }
});
