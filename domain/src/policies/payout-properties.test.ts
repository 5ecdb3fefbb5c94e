import type { Peril, PolicyEvent, ReadingIndex } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { type FieldReadings, readingsByPeril } from '../testing/readings';
import { closingDate } from './close-policy';
import { evaluatePolicy } from './evaluate-policy';
import { evolvePolicy, type IssuedPolicy, type Policy } from './policy';

// Random readings pushed between random evaluations of a random policy: the payout rules must hold
// after every step, whatever the weather. Readings are replaced as often as added (revisions up and
// down), and some evaluations come after the policy's closing date.

const termStart = '2026-04-01';
const termEnd = '2026-06-29';

const readingArbitrary = fc.oneof(
  fc.record({
    index: fc.constant<ReadingIndex>('rainfall_mm'),
    day: fc.integer({ min: -3, max: 92 }),
    value: fc.double({ min: 0, max: 1000, noNaN: true }),
  }),
  fc.record({
    index: fc.constant<ReadingIndex>('ndvi'),
    day: fc.integer({ min: 0, max: 92 }),
    value: fc.double({ min: -1, max: 1, noNaN: true }),
  }),
  fc.record({
    index: fc.constant<ReadingIndex>('wind_speed_ms'),
    day: fc.integer({ min: 0, max: 92 }),
    value: fc.double({ min: 0, max: 120, noNaN: true }),
  }),
);

const scenarioArbitrary = fc.record({
  perils: fc.uniqueArray(fc.constantFrom<Peril>('drought', 'flood', 'vegetation_stress', 'storm'), { minLength: 1 }),
  // At least JPY 1,000: a smaller cover's premium rounds to nothing and is refused (premium_too_small).
  sumInsured: fc.integer({ min: 1_000, max: 1_000_000_000 }),
  steps: fc.array(
    fc.record({ pushed: fc.array(readingArbitrary, { maxLength: 40 }), day: fc.integer({ min: 0, max: 130 }) }),
    {
      minLength: 1,
      maxLength: 8,
    },
  ),
});

const issued = (perils: Peril[], sumInsured: number): Policy =>
  issuedPolicyAfter(policyIssuedEvents({ perils, sumInsured, currency: 'JPY', termStart, termEnd }));

/** Readings as the store keeps them: the latest value per index and date, its revision counting the
 *  replacements. */
const upsert = (
  stored: FieldReadings,
  pushed: readonly { index: ReadingIndex; day: number; value: number }[],
): FieldReadings => {
  const next = { ...stored };
  for (const index of ['rainfall_mm', 'ndvi', 'wind_speed_ms'] as const) {
    const byDate = new Map(stored[index].map((reading) => [reading.date, reading]));
    for (const reading of pushed.filter((candidate) => candidate.index === index)) {
      const date = addDays(termStart, reading.day);
      byDate.set(date, { date, value: reading.value, revision: (byDate.get(date)?.revision ?? 0) + 1 });
    }
    next[index] = [...byDate.values()];
  }
  return next;
};

const asIssued = (state: Policy): IssuedPolicy => {
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};

const eventsOf = <Type extends PolicyEvent['type']>(events: readonly PolicyEvent[], type: Type) =>
  events.flatMap((event) => (event.type === type ? [event.data as Extract<PolicyEvent, { type: Type }>['data']] : []));

const MAX_ROUNDS = 3;

describe('payout properties over random readings and evaluation sequences', () => {
  it('never pay beyond the sum insured nor after closing, pay an unchanged breach nothing, a deeper one only the difference, and record each overpayment once', () => {
    let overpaymentsSeen = 0;
    // Another 300 random runs while none has corrected a reading below what was paid (now and then a
    // random seed makes none in 300; a clean-clone CI run met one): the property holds in every run
    // either way, and the check below still fails if the readings never do.
    for (let round = 1; round <= MAX_ROUNDS && overpaymentsSeen === 0; round += 1)
      fc.assert(
        fc.property(scenarioArbitrary, ({ perils, sumInsured, steps }) => {
          let state = issued(perils, sumInsured);
          let stored: FieldReadings = { rainfall_mm: [], ndvi: [], wind_speed_ms: [] };
          const log: PolicyEvent[] = [];
          steps.forEach((step, at) => {
            stored = upsert(stored, step.pushed);
            const command = {
              actor: insurer,
              evaluationId: `e${at}`,
              readings: readingsByPeril(stored),
              now: new Date(`${addDays(termStart, step.day)}T12:00:00Z`),
            };
            const before = asIssued(state);
            if (addDays(termStart, step.day) >= closingDate(before)) {
              // Finality: from the closing date nothing is evaluated, so nothing is paid.
              expect(() => evaluatePolicy(command, state)).toThrow(expect.objectContaining({ code: 'policy_closed' }));
              return;
            }
            const events = evaluatePolicy(command, state);
            // Deciding again on the same state (a retry after a conflict) decides the same.
            expect(evaluatePolicy(command, state)).toEqual(events);
            for (const payout of eventsOf(events, 'PayoutApproved')) {
              const cover = before.perils.find((candidate) => candidate.terms.peril === payout.peril)!;
              const evaluated = eventsOf(events, 'TriggerEvaluated').find((trigger) => trigger.peril === payout.peril)!;
              // Paid only above the most that peril was ever paid (nothing is taken back, so that is its total).
              expect(cover.paidMinor + payout.amount_minor).toBeLessThanOrEqual(evaluated.amount_due_minor!);
            }
            state = events.reduce(evolvePolicy, state);
            log.push(...events);
            const after = asIssued(state);
            const paid = eventsOf(log, 'PayoutApproved').reduce((sum, payout) => sum + payout.amount_minor, 0);
            expect(after.paidMinor).toBe(paid);
            expect(paid).toBeLessThanOrEqual(sumInsured);
            for (const cover of after.perils) {
              const { peril } = cover.terms;
              // Each peril is paid what its deepest breach is worth, unless the sum insured ran out first.
              expect(cover.paidMinor).toBeLessThanOrEqual(cover.deepestDueMinor);
              if (paid < sumInsured) expect(cover.paidMinor).toBe(cover.deepestDueMinor);
              const evaluated = eventsOf(events, 'TriggerEvaluated').find((trigger) => trigger.peril === peril);
              const recorded = eventsOf(events, 'PayoutOverpaymentRecorded').filter((record) => record.peril === peril);
              if (evaluated === undefined || evaluated.amount_due_minor! >= cover.paidMinor) {
                expect(recorded).toEqual([]);
              } else {
                // Due less than paid: recorded unless this very amount due was recorded last time.
                const coverBefore = before.perils.find((candidate) => candidate.terms.peril === peril)!;
                const due = evaluated.amount_due_minor!;
                expect(recorded).toEqual(
                  coverBefore.overpaidDueMinor === due
                    ? []
                    : [
                        expect.objectContaining({
                          amount_paid_minor: cover.paidMinor,
                          amount_due_minor: due,
                          difference_minor: cover.paidMinor - due,
                        }),
                      ],
                );
                expect(cover.overpaidDueMinor).toBe(due);
                overpaymentsSeen += recorded.length;
              }
            }
            // The same evaluation again, on the same readings and day, pays, breaches and records nothing more.
            const repeat = evaluatePolicy({ ...command, evaluationId: `r${at}` }, state);
            expect(
              repeat.filter(
                (event) =>
                  event.type === 'PayoutApproved' ||
                  event.type === 'TriggerBreached' ||
                  event.type === 'PayoutOverpaymentRecorded',
              ),
            ).toEqual([]);
          });
          expect(asIssued(state).status).toBe(eventsOf(log, 'PayoutApproved').length > 0 ? 'claimed' : 'active');
        }),
        { numRuns: 300 },
      );
    // The runs did correct readings downwards after payouts, not only upwards.
    expect(overpaymentsSeen).toBeGreaterThan(0);
  });
});
