import type { Peril, PolicyEvent, ReadingIndex } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { type FieldReadings, readingsByPeril } from '../testing/readings';
import { closingDate } from './close-policy';
import { evaluatePolicy } from './evaluate-policy';
import { evolvePolicy, type IssuedPolicy, type Policy } from './policy';
import { repeatsLatestEvaluation } from './repeated-evaluation';

// The monitor leaves unrecorded a daily evaluation that repeats the last one. Two copies of one policy
// live through the same days and readings: one records every evaluation, the other skips the repeats.
// Whatever the weather and whichever days the monitor runs, both must pay, breach and record
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

describe('leaving repeated evaluations unrecorded', () => {
  it('never skips a payout, a breach or an overpayment: the same money moves on the same days as recording every evaluation', () => {
    let skipped = 0;
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
          day = addDays(day, step.gap);
          if (day >= closingDate(asIssued(everyEvaluation))) break;
          const feed = step.feed
            ? Array.from({ length: step.feed.days }, (_, offset) => ({
                index: step.feed!.index,
                day: step.feed!.fromDay + offset,
                value: step.feed!.value,
              }))
            : [];
          // Only readings dated before today exist yet.
          stored = upsert(
            stored,
            [...feed, ...step.pushed].filter((reading) => addDays(termStart, reading.day) < day),
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
          if (repeatsLatestEvaluation(asIssued(changesOnly), decided)) {
            skipped += 1;
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

  it('is one on the same readings a day later, and not one once a reading was revised', () => {
    // Given a flood cover evaluated on its readings up to 10 April
    const policy = issued(['flood'], 1_000_000);
    const upToApril10 = rainfall(10, 3);
    const first = evaluated(policy, '2026-04-11', { flood: upToApril10 }, 'e1');
    expect(repeatsLatestEvaluation(policy, first.decided)).toBe(false);

    // When nothing new came in by the next day, then evaluating again repeats it
    const quiet = evaluated(first.after, '2026-04-12', { flood: upToApril10 }, 'e2');
    expect(repeatsLatestEvaluation(first.after, quiet.decided)).toBe(true);

    // When a reading was revised to the same maximum, then it does not: other readings, another digest
    const revised = upToApril10.map((reading, at) => (at === 3 ? { ...reading, value: 2, revision: 2 } : reading));
    const corrected = evaluated(first.after, '2026-04-12', { flood: revised }, 'e3');
    expect(repeatsLatestEvaluation(first.after, corrected.decided)).toBe(false);
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
    expect(repeatsLatestEvaluation(onTermEnd.after, closed.decided)).toBe(false);
    // And the settlement period's evaluations on the same readings repeat it, paying nothing more
    const later = evaluated(closed.after, '2026-07-05', { drought: wholeTerm }, 'e3');
    expect(later.decided.map((event) => event.type)).toEqual(['TriggerEvaluated']);
    expect(repeatsLatestEvaluation(closed.after, later.decided)).toBe(true);
  });
});
