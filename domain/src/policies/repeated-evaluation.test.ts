import type { Peril, PolicyEvent, ReadingIndex } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { type FieldReadings, readingsByPeril } from '../testing/readings';
import { closingDate } from './close-policy';
import { evaluatePolicy } from './evaluate-policy';
import { evolvePolicy, type IssuedPolicy, type Policy } from './policy';
import { repeatsLatestConclusion } from './repeated-evaluation';

// The monitor records a daily evaluation only when its conclusion changes (SPEC §7 "What the log
// records"). Two copies of one policy live through the same days and readings: one records every
// evaluation, the other only those that conclude something new. Whatever the weather, a daily feed moving
// the observed values, corrections and whichever days the monitor runs, both must pay, breach and record
// overpayments alike.

const termStart = '2026-04-01';
const termEnd = '2026-06-29';

const readingArbitrary = fc.oneof(
  fc.record({
    index: fc.constant<ReadingIndex>('rainfall_mm'),
    day: fc.integer({ min: -3, max: 92 }),
    value: fc.oneof(fc.constantFrom(0, 1, 3, 40, 200), fc.double({ min: 0, max: 1000, noNaN: true })),
  }),
  fc.record({
    index: fc.constant<ReadingIndex>('ndvi'),
    day: fc.integer({ min: 0, max: 92 }),
    value: fc.oneof(fc.constantFrom(0.1, 0.3, 0.6), fc.double({ min: -1, max: 1, noNaN: true })),
  }),
  fc.record({
    index: fc.constant<ReadingIndex>('wind_speed_ms'),
    day: fc.integer({ min: 0, max: 92 }),
    value: fc.oneof(fc.constantFrom(5, 30, 45), fc.double({ min: 0, max: 120, noNaN: true })),
  }),
);

/** Whole weeks of daily readings at once, as a feed that was down catches up: windows that complete. */
const feedArbitrary = fc.record({
  index: fc.constantFrom<ReadingIndex>('rainfall_mm', 'ndvi', 'wind_speed_ms'),
  fromDay: fc.integer({ min: 0, max: 90 }),
  days: fc.integer({ min: 1, max: 60 }),
  value: fc.constantFrom(0, 0.2, 2, 35),
});

const scenarioArbitrary = fc.record({
  perils: fc.uniqueArray(fc.constantFrom<Peril>('drought', 'flood', 'vegetation_stress', 'storm'), { minLength: 1 }),
  sumInsured: fc.integer({ min: 1_000, max: 1_000_000_000 }),
  // Mostly quiet days (nothing new), some days with readings or a feed catching up; the monitor runs
  // daily with gaps, through term end and the settlement period.
  days: fc.array(
    fc.record({
      gap: fc.integer({ min: 1, max: 9 }),
      pushed: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 2, arbitrary: fc.array(readingArbitrary, { maxLength: 5 }) },
      ),
      feed: fc.option(feedArbitrary, { freq: 4 }),
      // A daily feed: every day since the last round gets a reading of each series, so the observed
      // values and the readings' digest move on most days.
      daily: fc.option(
        fc.record({
          rain: fc.oneof(fc.constantFrom(0, 2, 5), fc.double({ min: 0, max: 60, noNaN: true })),
          ndvi: fc.double({ min: -1, max: 1, noNaN: true }),
          wind: fc.double({ min: 0, max: 50, noNaN: true }),
        }),
        { freq: 2 },
      ),
    }),
    { minLength: 1, maxLength: 40 },
  ),
});

const upsert = (stored: FieldReadings, pushed: readonly { index: ReadingIndex; day: number; value: number }[]) => {
  const next = { ...stored };
  for (const index of ['rainfall_mm', 'ndvi', 'wind_speed_ms'] as const) {
    const byDate = new Map(stored[index].map((reading) => [reading.date, reading]));
    for (const reading of pushed.filter((candidate) => candidate.index === index)) {
      const date = addDays(termStart, reading.day);
      const current = byDate.get(date);
      // The store keeps an unchanged value as it was (no new revision).
      if (current?.value === reading.value) continue;
      byDate.set(date, { date, value: reading.value, revision: (current?.revision ?? 0) + 1 });
    }
    next[index] = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  }
  return next;
};

const issued = (perils: Peril[], sumInsured: number): IssuedPolicy =>
  issuedPolicyAfter(policyIssuedEvents({ perils, sumInsured, currency: 'JPY', termStart, termEnd }));

const asIssued = (state: Policy): IssuedPolicy => {
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};

/** What moves money or is shown as a claim event, without the ids and times of the evaluation. */
const moneyOf = (day: string, events: readonly PolicyEvent[]) =>
  events.flatMap((event) => {
    switch (event.type) {
      case 'TriggerBreached':
        return [[day, event.type, event.data.peril, event.data.amount_due_minor, event.data.payout?.amount_minor]];
      case 'PayoutApproved':
        return [[day, event.type, event.data.peril, event.data.amount_minor]];
      case 'PayoutOverpaymentRecorded':
        return [[day, event.type, event.data.peril, event.data.amount_paid_minor, event.data.amount_due_minor]];
      default:
        return [];
    }
  });

describe('recording daily evaluations only when their conclusion changes', () => {
  it('never loses a payout, a breach or an overpayment: the same money moves on the same days as recording every evaluation', () => {
    let skipped = 0;
    let movedButLeftOut = 0;
    let paid = 0;
    fc.assert(
      fc.property(scenarioArbitrary, ({ perils, sumInsured, days }) => {
        let everyEvaluation: Policy = issued(perils, sumInsured);
        let changesOnly: Policy = everyEvaluation;
        let stored: FieldReadings = { rainfall_mm: [], ndvi: [], wind_speed_ms: [] };
        const moneyRecordingEvery: unknown[] = [];
        const moneySkippingRepeats: unknown[] = [];
        let day = termStart;
        for (const [at, step] of days.entries()) {
          const since = day;
          day = addDays(day, step.gap);
          if (day >= closingDate(asIssued(everyEvaluation))) break;
          const feed = step.feed
            ? Array.from({ length: step.feed.days }, (_, offset) => ({
                index: step.feed!.index,
                day: step.feed!.fromDay + offset,
                value: step.feed!.value,
              }))
            : [];
          const sinceDay = daysBetween(termStart, since);
          const daily = step.daily
            ? Array.from({ length: step.gap }, (_, offset) => [
                { index: 'rainfall_mm' as const, day: sinceDay + offset, value: step.daily!.rain },
                { index: 'ndvi' as const, day: sinceDay + offset, value: step.daily!.ndvi },
                { index: 'wind_speed_ms' as const, day: sinceDay + offset, value: step.daily!.wind },
              ]).flat()
            : [];
          // Only readings dated before today exist yet.
          stored = upsert(
            stored,
            [...daily, ...feed, ...step.pushed].filter((reading) => addDays(termStart, reading.day) < day),
          );
          const command = {
            actor: insurer,
            evaluationId: `e${at}`,
            readings: readingsByPeril(stored),
            now: new Date(`${day}T00:05:00Z`),
          };

          const recorded = evaluatePolicy(command, everyEvaluation);
          everyEvaluation = recorded.reduce(evolvePolicy, everyEvaluation);
          moneyRecordingEvery.push(...moneyOf(day, recorded));

          const decided = evaluatePolicy(command, changesOnly);
          if (repeatsLatestConclusion(asIssued(changesOnly), decided)) {
            skipped += 1;
            // Left out although the readings moved since the last recorded evaluation.
            if (step.daily) movedButLeftOut += 1;
            continue;
          }
          changesOnly = decided.reduce(evolvePolicy, changesOnly);
          moneySkippingRepeats.push(...moneyOf(day, decided));
        }
        expect(moneySkippingRepeats).toEqual(moneyRecordingEvery);
        expect(asIssued(changesOnly).paidMinor).toBe(asIssued(everyEvaluation).paidMinor);
        expect(asIssued(changesOnly).status).toBe(asIssued(everyEvaluation).status);
        paid += asIssued(everyEvaluation).paidMinor > 0 ? 1 : 0;
      }),
      { numRuns: 400 },
    );
    // The runs did skip repeats, and did pay: the comparison was not vacuous.
    expect(skipped).toBeGreaterThan(100);
    expect(movedButLeftOut).toBeGreaterThan(100);
    expect(paid).toBeGreaterThan(20);
  });
});

describe('a repeated evaluation', () => {
  const rainfall = (days: number, value: number): IndexObservation[] =>
    Array.from({ length: days }, (_, offset) => ({ date: addDays(termStart, offset), value, revision: 1 }));
  const evaluated = (state: IssuedPolicy, day: string, readings: ReadingHistory, evaluationId: string) => {
    const decided = evaluatePolicy(
      { actor: insurer, evaluationId, readings, now: new Date(`${day}T00:05:00Z`) },
      state,
    );
    return { decided, after: asIssued(decided.reduce(evolvePolicy, state)) };
  };

  it('is one when a new day of readings moves the observed value and the digest but not what it concludes', () => {
    // Given a flood cover evaluated on its daily readings up to 10 April
    const policy = issued(['flood'], 1_000_000);
    const first = evaluated(policy, '2026-04-11', { flood: rainfall(10, 3) }, 'e1');
    expect(repeatsLatestConclusion(policy, first.decided)).toBe(false);

    // When the next day's reading comes in, wetter but far from a flood, and the monitor evaluates again
    const nextDay = [...rainfall(10, 3), { date: '2026-04-11', value: 8, revision: 1 }];
    const moved = evaluated(first.after, '2026-04-12', { flood: nextDay }, 'e2');

    // Then the observed value and the readings digest moved, and the evaluation is still left out
    const [before, after] = [first.decided[0], moved.decided[0]];
    if (before?.type !== 'TriggerEvaluated' || after?.type !== 'TriggerEvaluated') throw new Error('not evaluated');
    expect(after.data.observed_value).not.toBe(before.data.observed_value);
    expect(after.data.provenance?.digest).not.toBe(before.data.provenance?.digest);
    expect(moved.decided.map((event) => event.type)).toEqual(['TriggerEvaluated']);
    expect(repeatsLatestConclusion(first.after, moved.decided)).toBe(true);
  });

  it('is not one when a revised reading makes it breach', () => {
    // Given a flood cover evaluated on quiet readings up to 10 April
    const policy = issued(['flood'], 1_000_000);
    const quiet = rainfall(10, 3);
    const first = evaluated(policy, '2026-04-11', { flood: quiet }, 'e1');

    // When the provider corrects three days to a downpour and the monitor evaluates again
    const corrected = quiet.map((reading, at) =>
      at >= 4 && at <= 6 ? { ...reading, value: 200, revision: 2 } : reading,
    );
    const flooded = evaluated(first.after, '2026-04-11', { flood: corrected }, 'e2');

    // Then it breaches and pays, which is recorded
    expect(flooded.decided.map((event) => event.type)).toEqual([
      'TriggerEvaluated',
      'TriggerBreached',
      'PayoutApproved',
    ]);
    expect(repeatsLatestConclusion(first.after, flooded.decided)).toBe(false);
  });

  it('is not one on the day the coverage falls below the completeness threshold, and is one the day after', () => {
    // Given a flood cover evaluated on 11 April on readings of 10 of its 11 days (complete at 90%)
    const policy = issued(['flood'], 1_000_000);
    const upToApril10 = rainfall(10, 3);
    const first = evaluated(policy, '2026-04-11', { flood: upToApril10 }, 'e1');

    // When the feed stops and the monitor evaluates on 12 April (10 of 12 days read)
    const under = evaluated(first.after, '2026-04-12', { flood: upToApril10 }, 'e2');

    // Then the coverage crossed the threshold: recorded
    expect(repeatsLatestConclusion(first.after, under.decided)).toBe(false);
    // And on 13 April, still under it, nothing new is concluded
    const stillUnder = evaluated(under.after, '2026-04-13', { flood: upToApril10 }, 'e3');
    expect(repeatsLatestConclusion(under.after, stillUnder.decided)).toBe(true);
  });

  it('is not one when the drought window closes at term end and pays; the days after repeat it', () => {
    // Given a dry season evaluated on term end, before that day's reading came in
    const policy = issued(['drought'], 1_000_000);
    const wholeTerm = rainfall(90, 0.5);
    const onTermEnd = evaluated(policy, '2026-06-29', { drought: wholeTerm.slice(0, 89) }, 'e1');
    expect(onTermEnd.decided.map((event) => event.type)).toEqual(['TriggerEvaluated']);

    // When the last reading is in the next day, the window closed
    const closed = evaluated(onTermEnd.after, '2026-06-30', { drought: wholeTerm }, 'e2');

    // Then the breach is declared and paid, and that is no repeat
    expect(closed.decided.map((event) => event.type)).toEqual([
      'TriggerEvaluated',
      'TriggerBreached',
      'PayoutApproved',
    ]);
    expect(repeatsLatestConclusion(onTermEnd.after, closed.decided)).toBe(false);
    // And the settlement period's evaluations on the same readings repeat it, paying nothing more
    const later = evaluated(closed.after, '2026-07-05', { drought: wholeTerm }, 'e3');
    expect(later.decided.map((event) => event.type)).toEqual(['TriggerEvaluated']);
    expect(repeatsLatestConclusion(closed.after, later.decided)).toBe(true);
  });
});
