import type { Peril } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { dailyReadings, readingsByPeril } from '../testing/readings';
import { evaluatePolicy } from './evaluate-policy';
import { sharedPerilAssessor } from './peril-assessor';
import { evolvePolicy, type Policy } from './policy';

// A monitor pass evaluates many policies on one list of readings with one shared assessor: each policy
// must decide exactly what it decides alone, whatever its perils, sum insured or term, and whichever
// policies asked before it on whichever days.

const policyArbitrary = fc.record({
  perils: fc.uniqueArray(fc.constantFrom<Peril>('drought', 'flood', 'storm', 'vegetation_stress'), { minLength: 1 }),
  sumInsured: fc.integer({ min: 1_000, max: 1_000_000_000 }),
  termStart: fc.constantFrom('2026-04-01', '2026-04-15'),
  termEnd: fc.constantFrom('2026-06-29', '2026-05-31'),
});

const passArbitrary = fc.record({
  policies: fc.array(policyArbitrary, { minLength: 1, maxLength: 6 }),
  rain: fc.array(fc.oneof(fc.constantFrom(0, 3, 40, 200), fc.double({ min: 0, max: 500, noNaN: true })), {
    maxLength: 100,
  }),
  wind: fc.array(fc.double({ min: 0, max: 120, noNaN: true }), { maxLength: 100 }),
  ndvi: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { maxLength: 100 }),
  days: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 4 }),
});

describe('a shared peril assessor', () => {
  it('lets every policy of a pass decide exactly what it decides alone', () => {
    fc.assert(
      fc.property(passArbitrary, ({ policies, rain, wind, ndvi, days }) => {
        // One list per series, as the pass hands the same list to every policy on the cell.
        const readings = readingsByPeril({
          rainfall_mm: dailyReadings('2026-04-01', rain),
          wind_speed_ms: dailyReadings('2026-04-01', wind),
          ndvi: dailyReadings('2026-04-01', ndvi),
        });
        const assessor = sharedPerilAssessor();
        let states: Policy[] = policies.map((terms) => issuedPolicyAfter(policyIssuedEvents(terms)));
        for (const [at, day] of days.entries()) {
          states = states.map((state) => {
            if (state.status === 'not_issued' || state.closedAt !== null) return state;
            const now = new Date(`${addDays('2026-04-01', day)}T06:00:00Z`);
            const command = { actor: insurer, evaluationId: `e${at}`, readings, now };
            let alone: ReturnType<typeof evaluatePolicy>;
            try {
              alone = evaluatePolicy(command, state);
            } catch {
              // Refused (closed): refused with the shared assessor too.
              expect(() => evaluatePolicy({ ...command, assessor }, state)).toThrow();
              return state;
            }
            expect(evaluatePolicy({ ...command, assessor }, state)).toEqual(alone);
            return alone.reduce(evolvePolicy, state);
          });
        }
      }),
      { numRuns: 200 },
    );
  });
});
