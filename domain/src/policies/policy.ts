import type {
  DataCoverage,
  Peril,
  PerilDataSource,
  PolicyEvent,
  PolicyIssued,
  PolicyStatus,
  SkipReason,
  TriggerEvaluated,
  TriggerTerms,
} from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';
import { utcDate } from '../insurance/calendar-date';
import { multiplyMinorUnits } from '../insurance/money';
import { ownFieldData } from '../insurance/peril-data';
import { FULL_SEVERITY_PPM, severityPpmOf } from '../insurance/severity';

/** One peril of an issued policy: its frozen trigger and what it has breached and been paid so far. */
export interface PerilCover {
  readonly terms: TriggerTerms;
  /** The source and location the trigger reads, frozen at issue. */
  readonly data: PerilDataSource;
  readonly breached: boolean;
  /** The deepest severity breached so far, as shown (millionths). */
  readonly deepestSeverityPpm: number;
  /** What the deepest breach so far was worth: a later breach is deeper, and may pay, only above it. */
  readonly deepestDueMinor: number;
  /** Everything this peril was paid. Nothing is ever taken back, so it is also the most it was ever
   *  paid: a deeper breach pays only above it. */
  readonly paidMinor: number;
  /** The amount due of the overpayment last recorded, while the peril is still due less than it was
   *  paid; null otherwise. An overpayment is recorded again only when the amount due changes. */
  readonly overpaidDueMinor: number | null;
  /** The aggregate of the last non-backtest evaluation; null when that evaluation skipped the peril. */
  readonly latestObservedValue: number | null;
  /** The coverage behind `latestObservedValue`, when that evaluation recorded it. */
  readonly latestCoverage: DataCoverage | null;
  /** Why the last evaluation skipped the peril; null when it evaluated it or none has run yet. */
  readonly latestSkipReason: SkipReason | null;
  /** What the last evaluation that evaluated the peril concluded, and from which readings; null when the
   *  last one skipped it or none has run yet. The monitor appends nothing for an evaluation that repeats it. */
  readonly latestConclusion: PerilConclusion | null;
}

/** The part of a recorded TriggerEvaluated that a later evaluation on unchanged inputs repeats: the
 *  window's start, the readings used (their digest), the aggregate and what it is worth. Not the window's
 *  end or the coverage, which move with the calendar alone. */
export interface PerilConclusion {
  readonly readingsFrom: string | null;
  /** Null on evaluations recorded before provenance was: nothing repeats them. */
  readonly digest: string | null;
  readonly observedValue: number;
  readonly breached: boolean;
  readonly severity: number;
  readonly amountDueMinor: number | null;
}

/** The conclusion a TriggerEvaluated records. */
export const conclusionOf = (evaluated: TriggerEvaluated): PerilConclusion => ({
  readingsFrom: evaluated.provenance?.readings_from ?? null,
  digest: evaluated.provenance?.digest ?? null,
  observedValue: evaluated.observed_value,
  breached: evaluated.breached,
  severity: evaluated.severity,
  amountDueMinor: evaluated.amount_due_minor ?? null,
});

export interface PolicyPayout {
  readonly payoutId: string;
  readonly peril: Peril;
  readonly evaluationId: string;
  readonly amountMinor: number;
  readonly approvedAt: string;
  readonly settledAt: string | null;
}

export interface IssuedPolicy {
  readonly status: PolicyStatus;
  /** The terms as issued: money, term, enrichment and frozen triggers. */
  readonly issued: PolicyIssued;
  readonly perils: readonly PerilCover[];
  readonly payouts: readonly PolicyPayout[];
  readonly paidMinor: number;
  /** UTC date of the last non-backtest evaluation, which the monitor schedules from. */
  readonly lastMonitoredOn: string | null;
  /** When the policy was closed (finality): no live evaluation after it. */
  readonly closedAt: string | null;
}

export type Policy = { readonly status: 'not_issued' } | IssuedPolicy;

export const initialPolicy: Policy = { status: 'not_issued' };

const updatePeril = (policy: IssuedPolicy, peril: Peril, change: (cover: PerilCover) => PerilCover): IssuedPolicy => ({
  ...policy,
  perils: policy.perils.map((cover) => (cover.terms.peril === peril ? change(cover) : cover)),
});

export const evolvePolicy = (state: Policy, event: PolicyEvent): Policy => {
  if (event.type === 'PolicyIssued') {
    return {
      status: 'active',
      issued: event.data,
      perils: event.data.triggers.map((terms) => ({
        terms,
        // Policies issued before sources read the field's readings; their own organization's are those.
        data:
          event.data.data_sources?.[terms.peril] ??
          ownFieldData(event.data.organization_id, event.data.farm_id, event.data.field_id, terms.reading),
        breached: false,
        deepestSeverityPpm: 0,
        deepestDueMinor: 0,
        paidMinor: 0,
        overpaidDueMinor: null,
        latestObservedValue: null,
        latestCoverage: null,
        latestSkipReason: null,
        latestConclusion: null,
      })),
      payouts: [],
      paidMinor: 0,
      lastMonitoredOn: null,
      closedAt: null,
    };
  }
  if (state.status === 'not_issued') return state;
  switch (event.type) {
    case 'TriggerEvaluated':
      return {
        ...updatePeril(state, event.data.peril, (cover) => ({
          ...cover,
          latestObservedValue: event.data.observed_value,
          latestCoverage: event.data.coverage ?? null,
          latestSkipReason: null,
          latestConclusion: conclusionOf(event.data),
          // Due what it was paid or more again: a later drop is a new overpayment. An evaluation recorded
          // before amounts due were says nothing of it (and none was recorded then).
          overpaidDueMinor:
            event.data.amount_due_minor !== undefined && event.data.amount_due_minor >= cover.paidMinor
              ? null
              : cover.overpaidDueMinor,
        })),
        lastMonitoredOn: utcDate(new Date(event.data.evaluated_at)),
      };
    case 'TriggerEvaluationSkipped':
      return {
        ...state,
        perils: state.perils.map((cover) =>
          event.data.perils.includes(cover.terms.peril)
            ? {
                ...cover,
                latestObservedValue: null,
                latestCoverage: null,
                // A skip recorded before reasons were had no reading at all.
                latestSkipReason: event.data.reasons?.[cover.terms.peril] ?? 'no_data',
                latestConclusion: null,
              }
            : cover,
        ),
        lastMonitoredOn: utcDate(new Date(event.data.evaluated_at)),
      };
    case 'TriggerBreached':
      return updatePeril(state, event.data.peril, (cover) => ({
        ...cover,
        breached: true,
        deepestSeverityPpm: Math.max(cover.deepestSeverityPpm, severityPpmOf(event.data.severity)),
        deepestDueMinor: Math.max(
          cover.deepestDueMinor,
          // A breach recorded before amounts due was worth its severity in millionths × sum insured.
          event.data.amount_due_minor ??
            multiplyMinorUnits(
              state.issued.sum_insured_minor,
              BigInt(severityPpmOf(event.data.severity)),
              BigInt(FULL_SEVERITY_PPM),
            ),
        ),
      }));
    case 'PayoutOverpaymentRecorded':
      return updatePeril(state, event.data.peril, (cover) => ({
        ...cover,
        overpaidDueMinor: event.data.amount_due_minor,
      }));
    case 'PayoutApproved': {
      const { payout_id, peril, evaluation_id, amount_minor, approved_at } = event.data;
      const paid = updatePeril(state, peril, (cover) => ({ ...cover, paidMinor: cover.paidMinor + amount_minor }));
      return {
        ...paid,
        status: state.status === 'active' ? 'claimed' : state.status,
        payouts: [
          ...state.payouts,
          {
            payoutId: payout_id,
            peril,
            evaluationId: evaluation_id,
            amountMinor: amount_minor,
            approvedAt: approved_at,
            settledAt: null,
          },
        ],
        paidMinor: state.paidMinor + amount_minor,
      };
    }
    case 'PayoutSettled':
      return {
        ...state,
        payouts: state.payouts.map((payout) =>
          payout.payoutId === event.data.payout_id ? { ...payout, settledAt: event.data.settled_at } : payout,
        ),
      };
    case 'PolicyLapsed':
      return { ...state, status: 'lapsed' };
    case 'PolicyClosed':
      return { ...state, status: event.data.status, closedAt: event.data.closed_at };
    // The closing of an unpaid policy before PolicyClosed was.
    case 'PolicyExpired':
      return { ...state, status: 'expired', closedAt: event.data.expired_at };
  }
};

/** `policy-<policy_id>`: every event of one policy, from its issue to its settlement. */
export const policyStream = streamName('policy');

export const policyAggregate: Aggregate<Policy, PolicyEvent> = { initial: initialPolicy, evolve: evolvePolicy };
