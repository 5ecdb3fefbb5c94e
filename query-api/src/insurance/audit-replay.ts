import { PolicyEvent } from '@cropcover/contracts';
import {
  evolvePolicy,
  type IssuedPolicy,
  initialPolicy,
  nextMonitoringDate,
  type Policy,
  severityFraction,
  toMajorUnits,
} from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';

/** What an auditor reads of the policy after an event; money in major units, as the API shows it. */
export interface PolicyStateSummary {
  readonly status: IssuedPolicy['status'];
  readonly paid: number;
  readonly next_monitoring_date: string | null;
  readonly closed_at: string | null;
  readonly perils: readonly {
    readonly peril: string;
    readonly breached: boolean;
    readonly deepest_severity: number;
    readonly paid: number;
    readonly latest_observed_value: number | null;
  }[];
  readonly payouts: readonly {
    readonly payout_id: string;
    readonly peril: string;
    readonly amount: number;
    readonly settled_at: string | null;
  }[];
}

export interface AuditStep {
  readonly revision: number;
  readonly type: string;
  readonly occurred_at: string;
  readonly actor: string;
  readonly state: PolicyStateSummary;
}

const summary = (policy: IssuedPolicy): PolicyStateSummary => {
  const money = (minor: number) => toMajorUnits(minor, policy.issued.currency);
  return {
    status: policy.status,
    paid: money(policy.paidMinor),
    next_monitoring_date: nextMonitoringDate(policy) ?? null,
    closed_at: policy.closedAt,
    perils: policy.perils.map((cover) => ({
      peril: cover.terms.peril,
      breached: cover.breached,
      deepest_severity: severityFraction(cover.deepestSeverityPpm),
      paid: money(cover.paidMinor),
      latest_observed_value: cover.latestObservedValue,
    })),
    payouts: policy.payouts.map((payout) => ({
      payout_id: payout.payoutId,
      peril: payout.peril,
      amount: money(payout.amountMinor),
      settled_at: payout.settledAt,
    })),
  };
};

/** Replays a policy's stream through the domain's evolvePolicy, the very fold the command side decides
 *  on, and records the state after each event. A stream that does not begin with PolicyIssued is not a
 *  policy's: that is an error, not an empty state. */
export const replayPolicyAudit = (events: readonly RecordedEvent[]): AuditStep[] => {
  let state: Policy = initialPolicy;
  return events.map((event) => {
    state = evolvePolicy(state, PolicyEvent.parse({ type: event.type, data: event.data }));
    if (state.status === 'not_issued') throw new Error(`${event.streamId} does not begin with PolicyIssued`);
    return {
      revision: event.revision,
      type: event.type,
      occurred_at: event.metadata.occurred_at,
      actor: event.metadata.actor,
      state: summary(state),
    };
  });
};
