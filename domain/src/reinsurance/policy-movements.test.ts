import type { PolicyEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { evolvePolicy, type IssuedPolicy, initialPolicy } from '../policies/policy';
import { policyIssuedEvents } from '../testing/issued-policy';
import { ledgerMovementsOf } from './policy-movements';

const now = new Date('2026-05-01T00:00:00.000Z');
const payout = (payoutId: string, amountMinor: number, approvedAt: string): PolicyEvent => ({
  type: 'PayoutApproved',
  data: {
    policy_id: 'p',
    payout_id: payoutId,
    evaluation_id: `eval-${payoutId}`,
    peril: 'flood',
    severity: 0.1,
    amount_minor: amountMinor,
    currency: 'KES',
    approved_at: approvedAt,
  },
});
const overpayment: PolicyEvent = {
  type: 'PayoutOverpaymentRecorded',
  data: {
    policy_id: 'p',
    evaluation_id: 'eval-3',
    peril: 'flood',
    amount_paid_minor: 3_000_000,
    amount_due_minor: 2_000_000,
    difference_minor: 1_000_000,
    currency: 'KES',
    recorded_at: '2026-04-20T06:00:00.000Z',
  },
};

/** Each event's movements, as the recorder would hand them over with the policy after it. */
const movementsOf = (events: readonly PolicyEvent[]) => {
  let policy = initialPolicy;
  return events.flatMap((event, revision) => {
    policy = evolvePolicy(policy, event);
    return ledgerMovementsOf({
      event,
      eventId: `e-${revision}`,
      revision,
      policy: policy as IssuedPolicy,
      programmeId: 'prog-1',
      now,
    });
  });
};

describe('what the cession ledger follows of a policy', () => {
  it('its premium at issue, each payout as the cover’s loss so far, an overpayment lowering it, a lapse', () => {
    const [issued] = policyIssuedEvents();
    const movements = movementsOf([
      issued!,
      payout('a', 1_000_000, '2026-04-10T06:00:00.000Z'),
      payout('b', 2_000_000, '2026-04-12T06:00:00.000Z'),
      overpayment,
    ]);
    expect(
      movements.map(({ kind, command }) => [
        kind,
        command.sourceEvent,
        command.policyRevision,
        'premiumMinor' in command ? command.premiumMinor : command.lossMinor,
      ]),
    ).toEqual([
      ['premium', 'e-0', 0, issued!.type === 'PolicyIssued' ? issued!.data.premium_minor : 0],
      ['loss', 'e-1', 1, 1_000_000],
      ['loss', 'e-2', 2, 3_000_000],
      ['loss', 'e-3', 3, 2_000_000],
    ]);
    expect(movements[1]).toMatchObject({
      command: {
        programmeId: 'prog-1',
        policyId: 'p',
        issuedOn: '2026-04-01',
        peril: 'flood',
        zone: { source_id: 'organization-fields:org-1', location: 'farm-1/north' },
        occurredAt: '2026-04-10T06:00:00.000Z',
        season: '2026',
      },
    });
  });

  it('a lapse takes the premium back to 0', () => {
    const [issued] = policyIssuedEvents();
    const lapse: PolicyEvent = {
      type: 'PolicyLapsed',
      data: { policy_id: 'p', reason: 'unpaid', lapsed_at: now.toISOString() },
    };
    expect(
      movementsOf([issued!, lapse]).map(({ command }) => ('premiumMinor' in command ? command.premiumMinor : null)),
    ).toEqual([issued!.type === 'PolicyIssued' ? issued!.data.premium_minor : null, 0]);
  });
});
