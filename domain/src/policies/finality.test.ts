import type { PolicyEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/decider-spec';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { reading } from '../testing/readings';
import { backtestPolicy } from './backtest-policy';
import { closePolicy, closingDate } from './close-policy';
import { evaluatePolicy } from './evaluate-policy';
import { nextMonitoringDate } from './next-monitoring-date';
import { evolvePolicy, initialPolicy } from './policy';
import { policyView } from './policy-view';

// SPEC §7 Finality: at term end + the settlement period every policy is closed, claimed ones too; no
// live evaluation pays from then on, whether or not the monitor closed it. Backtests still work.

// Term 1 April – 29 June 2026, 30 days of settlement: closes on 29 July.
const issued = policyIssuedEvents({ currency: 'KES', sumInsured: 250_000 });
const spec = deciderSpec(initialPolicy, evolvePolicy, evaluatePolicy);
const flood = (rainMm: number, revision = 1) => ({ flood: [reading('2026-04-03', rainMm, revision)] });
const evaluateAt = (at: string, rainMm: number, revision = 1) => ({
  actor: insurer,
  evaluationId: `e-${at}`,
  readings: flood(rainMm, revision),
  now: new Date(at),
});
const claimed = [...issued, ...evaluatePolicy(evaluateAt('2026-04-05T06:00:00Z', 200), issuedPolicyAfter(issued))];

describe('finality', () => {
  it('closes on term end plus the settlement period', () => {
    expect(closingDate(issuedPolicyAfter(issued))).toBe('2026-07-29');
  });

  it('refuses a claimed policy evaluated a year after term end, though a deeper reading came in', () => {
    spec
      .given(claimed)
      .when(evaluateAt('2027-06-29T06:00:00Z', 250, 2))
      .thenRefuses('rejected', 'policy_closed');
  });

  it('refuses an active policy the monitor never closed, evaluated after its closing date', () => {
    spec.given(issued).when(evaluateAt('2026-07-29T00:00:00Z', 400)).thenRefuses('rejected', 'policy_closed');
  });

  it('still pays on the last day of the settlement period: late readings count until then', () => {
    const late = evaluatePolicy(evaluateAt('2026-07-28T23:59:59Z', 250, 2), issuedPolicyAfter(claimed));
    expect(late.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []))).toEqual([
      8_333_334,
    ]);
  });

  it('refuses a closed policy whatever the clock says, and shows when it closed', () => {
    const [closing] = closePolicy({ now: new Date('2026-07-29T01:00:00Z') }, issuedPolicyAfter(claimed)) as [
      PolicyEvent,
    ];
    const closed = [...claimed, closing];
    spec
      .given(closed)
      .when(evaluateAt('2026-07-30T06:00:00Z', 300, 2))
      .thenRefuses('rejected', 'policy_closed');
    const policy = issuedPolicyAfter(closed);
    expect(nextMonitoringDate(policy)).toBeUndefined();
    expect(policyView(policy)).toMatchObject({ status: 'claimed', closed_at: '2026-07-29T01:00:00.000Z' });
    expect(policyView(policy).next_monitoring_date).toBeUndefined();
  });

  it('backtests a closed policy', () => {
    const [closing] = closePolicy({ now: new Date('2026-07-29T01:00:00Z') }, issuedPolicyAfter(issued)) as [
      PolicyEvent,
    ];
    const result = backtestPolicy(
      { actor: insurer, asOf: '2026-04-05', readings: flood(200), now: new Date('2027-01-01T00:00:00Z') },
      issuedPolicyAfter([...issued, closing]),
    );
    expect(result).toMatchObject({ is_backtest: true, total_payout: 83_333.33, policy_status: 'expired' });
  });
});
