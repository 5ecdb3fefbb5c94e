import type { PolicyEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/decider-spec';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { reading } from '../testing/readings';
import { evaluatePolicy } from './evaluate-policy';
import { evolvePolicy, initialPolicy } from './policy';

// SPEC §7 Revisions after payout: a corrected reading can lower what a peril is due below what it was
// paid. Nothing is taken back; the next live evaluation records the overpayment once per change, and a
// later deeper breach pays only above what the peril was already paid.

const issued = policyIssuedEvents({ currency: 'KES', sumInsured: 250_000 });
const spec = deciderSpec(initialPolicy, evolvePolicy, evaluatePolicy);

/** A live evaluation on 5 April of a flood whose 3 April reading is `rainMm` (revision `revision`). */
const evaluateWithRain = (evaluationId: string, rainMm: number, revision: number) => ({
  actor: insurer,
  evaluationId,
  readings: { flood: [reading('2026-04-03', rainMm, revision)] },
  now: new Date('2026-04-05T06:00:00Z'),
});

const withEvaluation = (events: readonly PolicyEvent[], evaluationId: string, rainMm: number, revision: number) => [
  ...events,
  ...evaluatePolicy(evaluateWithRain(evaluationId, rainMm, revision), issuedPolicyAfter(events)),
];

const overpayment = (evaluationId: string, paid: number, due: number): PolicyEvent => ({
  type: 'PayoutOverpaymentRecorded',
  data: {
    policy_id: 'p',
    evaluation_id: evaluationId,
    peril: 'flood',
    amount_paid_minor: paid,
    amount_due_minor: due,
    difference_minor: paid - due,
    currency: 'KES',
    recorded_at: '2026-04-05T06:00:00.000Z',
  },
});

const evaluated = (due: number) =>
  expect.objectContaining({ type: 'TriggerEvaluated', data: expect.objectContaining({ amount_due_minor: due }) });

describe('a reading corrected after a payout', () => {
  // 250 mm: 2/3 of the way from 150 to 300, so KES 166,666.67 paid.
  const paid = withEvaluation(issued, 'e1', 250, 1);

  it('records the overpayment in the next live evaluation, and takes nothing back', () => {
    spec
      .given(paid)
      .when(evaluateWithRain('e2', 200, 2))
      .thenEvents([evaluated(8_333_333), overpayment('e2', 16_666_667, 8_333_333)]);
    expect(issuedPolicyAfter([...paid, overpayment('e2', 16_666_667, 8_333_333)])).toMatchObject({
      status: 'claimed',
      paidMinor: 16_666_667,
    });
  });

  it('records it once while nothing changes, and again when the amount due changes again', () => {
    const recorded = withEvaluation(paid, 'e2', 200, 2);
    spec
      .given(recorded)
      .when(evaluateWithRain('e3', 200, 2))
      .thenEvents([evaluated(8_333_333)]);
    spec
      .given(recorded)
      .when(evaluateWithRain('e3', 180, 3))
      .thenEvents([evaluated(5_000_000), overpayment('e3', 16_666_667, 5_000_000)]);
    // No breach at all any more: everything paid is overpaid.
    spec
      .given(recorded)
      .when(evaluateWithRain('e3', 100, 3))
      .thenEvents([evaluated(0), overpayment('e3', 16_666_667, 0)]);
  });

  it('records a new overpayment after the amount due recovered and fell again', () => {
    const recovered = withEvaluation(withEvaluation(paid, 'e2', 200, 2), 'e3', 250, 3);
    expect(recovered.slice(paid.length + 2).map((event) => event.type)).toEqual(['TriggerEvaluated']);
    spec
      .given(recovered)
      .when(evaluateWithRain('e4', 200, 4))
      .thenEvents([evaluated(8_333_333), overpayment('e4', 16_666_667, 8_333_333)]);
  });

  it('pays a later deeper breach only above what the peril was already paid', () => {
    const lowered = withEvaluation(paid, 'e2', 200, 2);
    const deeper = evaluatePolicy(evaluateWithRain('e3', 260, 3), issuedPolicyAfter(lowered));
    // 260 mm is worth 18,333,333; 16,666,667 was paid and the overpayment is not paid again.
    expect(deeper.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []))).toEqual([
      1_666_666,
    ]);
    expect(deeper.filter((event) => event.type === 'PayoutOverpaymentRecorded')).toEqual([]);
    // Back at the depth already paid: nothing more, nothing recorded.
    spec
      .given(paid)
      .when(evaluateWithRain('e2', 250, 2))
      .thenEvents([evaluated(16_666_667)]);
  });
});
