import { describe, expect, it } from 'vitest';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { reading } from '../testing/readings';
import { evaluatePolicy } from './evaluate-policy';

// Issue 10 item 4: a payout is the exact fraction |observed − threshold| × sum insured / |exit −
// threshold| rounded once, not the severity rounded to millionths and then multiplied.

/** A flood of `rainMm` in one day (threshold 150, exit 300), evaluated live two days later. */
const floodPays = (currency: string, sumInsured: number, rainMm: number): number => {
  const readings: ReadingHistory = { flood: [reading('2026-04-03', rainMm)] };
  const events = evaluatePolicy(
    { actor: insurer, evaluationId: 'e1', readings, now: new Date('2026-04-05T06:00:00Z') },
    issuedPolicyAfter(policyIssuedEvents({ currency, sumInsured })),
  );
  return events.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []))[0] ?? 0;
};

describe('an exact payout', () => {
  it('pays KES 250,000 at severity 1/3 as 83,333.33, not 83,333.25', () => {
    expect(floodPays('KES', 250_000, 200)).toBe(8_333_333);
  });

  it('pays JPY 10,000,000,000 at 1/3 as 3,333,333,333 and at 2/3 as 6,666,666,667, never more', () => {
    expect(floodPays('JPY', 10_000_000_000, 200)).toBe(3_333_333_333);
    expect(floodPays('JPY', 10_000_000_000, 250)).toBe(6_666_666_667);
  });

  it('shows the severity rounded to 6 decimals, for display only', () => {
    const events = evaluatePolicy(
      {
        actor: insurer,
        evaluationId: 'e1',
        readings: { flood: [reading('2026-04-03', 250)] },
        now: new Date('2026-04-05T06:00:00Z'),
      },
      issuedPolicyAfter(policyIssuedEvents({ currency: 'JPY', sumInsured: 10_000_000_000 })),
    );
    expect(events.find((event) => event.type === 'PayoutApproved')).toMatchObject({
      data: { severity: 0.666667, amount_minor: 6_666_666_667 },
    });
  });
});
