import { createHash } from 'node:crypto';
import type { Peril, PolicyEvent } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { addDays } from '../insurance/calendar/calendar-date';
import { insurer } from '../testing/insured-farm';
import { policyIssuedEvents } from '../testing/issued-policy';
import { dailyReadings, readingsByPeril } from '../testing/readings';
import { closePolicy } from './close-policy';
import { evaluatePolicy } from './evaluate-policy';
import { lapsePolicy } from './lapse-policy';
import { evolvePolicy, initialPolicy, type Policy } from './policy';
import { POLICY_STATE_VERSION, policyFromSnapshot, policySnapshotOf } from './policy-snapshot';
import { settlePayout } from './settle-payout';

// A snapshot stands in for the events before it: a snapshot taken anywhere in a policy's life, plus the
// events after it, must give the state the whole history gives.

const termStart = '2026-04-01';

const stepArbitrary = fc.oneof(
  fc.record({
    kind: fc.constant('evaluate' as const),
    day: fc.integer({ min: 0, max: 130 }),
    rain: fc.array(fc.oneof(fc.constantFrom(0, 3, 40, 200), fc.double({ min: 0, max: 500, noNaN: true })), {
      maxLength: 100,
    }),
    wind: fc.array(fc.double({ min: 0, max: 120, noNaN: true }), { maxLength: 100 }),
  }),
  fc.record({ kind: fc.constantFrom('settle' as const, 'lapse' as const, 'close' as const), day: fc.nat(130) }),
);

const historyArbitrary = fc.record({
  perils: fc.uniqueArray(fc.constantFrom<Peril>('drought', 'flood', 'storm'), { minLength: 1 }),
  sumInsured: fc.integer({ min: 1_000, max: 1_000_000_000 }),
  steps: fc.array(stepArbitrary, { maxLength: 12 }),
});

type History = typeof historyArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

/** The events a policy's life records: a step its decider refuses records nothing, as a refused command. */
const historyOf = ({ perils, sumInsured, steps }: History): PolicyEvent[] => {
  const events = policyIssuedEvents({ perils, sumInsured, currency: 'JPY', termStart, termEnd: '2026-06-29' });
  let state = events.reduce(evolvePolicy, initialPolicy);
  steps.forEach((step, at) => {
    const now = new Date(`${addDays(termStart, step.day)}T12:00:00Z`);
    const decide = (): PolicyEvent[] => {
      if (step.kind === 'evaluate') {
        const readings = readingsByPeril({
          rainfall_mm: dailyReadings(termStart, step.rain),
          ndvi: [],
          wind_speed_ms: dailyReadings(termStart, step.wind),
        });
        return evaluatePolicy({ actor: insurer, evaluationId: `e${at}`, readings, now }, state);
      }
      if (step.kind === 'settle') {
        const unsettled = state.status === 'not_issued' ? undefined : state.payouts.find((p) => p.settledAt === null);
        return unsettled ? settlePayout({ actor: insurer, payoutId: unsettled.payoutId, now }, state) : [];
      }
      if (step.kind === 'lapse') return lapsePolicy({ actor: insurer, reason: 'premium unpaid', now }, state);
      return closePolicy({ now }, state);
    };
    try {
      const decided = decide();
      state = decided.reduce(evolvePolicy, state);
      events.push(...decided);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  });
  return events;
};

const replay = (events: readonly PolicyEvent[], from: Policy = initialPolicy): Policy =>
  events.reduce(evolvePolicy, from);

describe('policy snapshots', () => {
  it('a snapshot at any revision plus the events after it gives the state of the whole history', () => {
    fc.assert(
      fc.property(historyArbitrary, (history) => {
        const events = historyOf(history);
        const whole = replay(events);
        for (let revision = 0; revision <= events.length; revision += 1) {
          const snapshot = policySnapshotOf(replay(events.slice(0, revision)));
          const restored = policyFromSnapshot(snapshot);
          expect(restored).toBeDefined();
          // toEqual: the log's events, read back, carry no undefined fields for JSON to drop.
          expect(replay(events.slice(revision), restored)).toEqual(whole);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is not believed when it is of another state version or does not match its digest', () => {
    const snapshot = policySnapshotOf(replay(policyIssuedEvents()));
    expect(policyFromSnapshot(snapshot)).toEqual(replay(policyIssuedEvents()));
    expect(policyFromSnapshot({ ...snapshot, stateVersion: POLICY_STATE_VERSION - 1 })).toBeUndefined();
    expect(policyFromSnapshot({ ...snapshot, state: snapshot.state.replace('"active"', '"claimed"') })).toBeUndefined();
  });

  it('changes its state version whenever the state a fixed history replays to changes', () => {
    // A fixed life: issued, a flood paid, settled, evaluated again, closed. When this fingerprint moves,
    // bump POLICY_STATE_VERSION (so stored snapshots of the old shape are rebuilt) and update both.
    const events = historyOf({
      perils: ['drought', 'flood', 'storm'],
      sumInsured: 500_000,
      steps: [
        { kind: 'evaluate', day: 20, rain: [0, 3, 200, 200, 200, 40, 3], wind: [5, 6, 30] },
        { kind: 'settle', day: 22 },
        { kind: 'evaluate', day: 40, rain: [0, 3, 200, 200, 200, 200, 200, 200, 3], wind: [5, 6, 40] },
        { kind: 'close', day: 125 },
      ],
    });
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['PayoutSettled', 'PolicyClosed']));
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(replay(events)))
      .digest('hex')
      .slice(0, 16);
    expect({ version: POLICY_STATE_VERSION, fingerprint }).toEqual({ version: 5, fingerprint: '19f2bdf5d14cfa12' });
  });
});
