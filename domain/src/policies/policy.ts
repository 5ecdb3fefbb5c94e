import type {
  Comparison,
  Cover,
  DataCoverage,
  Peril,
  PerilDataSource,
  PolicyEvent,
  PolicyIssued,
  PolicyProduct,
  PolicyStatus,
  SkipReason,
  TermSheet,
} from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';
import { utcDate } from '../insurance/calendar/calendar-date';
import { ownFieldData } from '../insurance/index-data/peril-data';
import { severityPpmOf } from '../insurance/money/severity';
import { productCover } from '../insurance/term-sheet/product';
import { amountDueOfRecordedBreach, issuedProduct } from '../insurance/term-sheet/upcast';
import { conclusionOf, type PerilConclusion } from './peril-conclusion';

/** One peril of an issued policy: its frozen cover and what it has breached and been paid so far. */
export interface PerilCover {
  /** The sheet's cover of the peril, as frozen at issue. */
  readonly terms: Cover;
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
  /** The threshold and comparison of the phase that evaluation showed (a cover's governing phase). */
  readonly latestThreshold: number | null;
  readonly latestComparison: Comparison | null;
  /** The coverage behind `latestObservedValue`, when that evaluation recorded it. */
  readonly latestCoverage: DataCoverage | null;
  /** Why the last evaluation skipped the peril; null when it evaluated it or none has run yet. */
  readonly latestSkipReason: SkipReason | null;
  /** What the last evaluation that evaluated the peril concluded; null when the last one skipped it or
   *  none has run yet. The monitor appends nothing for an evaluation that concludes the same. */
  readonly latestConclusion: PerilConclusion | null;
}

export interface PolicyPayout {
  readonly payoutId: string;
  readonly peril: Peril;
  readonly evaluationId: string;
  readonly amountMinor: number;
  readonly approvedAt: string;
  readonly settledAt: string | null;
}

/** What `PolicyIssued` froze, but the sheet (on the policy once, as `sheet` and its covers). */
export type IssuedTerms = Omit<PolicyIssued, 'term_sheet'>;

/** A sheet's terms but its covers. */
export type SheetTerms = Omit<TermSheet, 'covers'>;

export interface IssuedPolicy {
  readonly status: PolicyStatus;
  /** The terms as issued: money, term, enrichment and frozen triggers. */
  readonly issued: IssuedTerms;
  /** The product version it was issued on (`default` version 0 before products). */
  readonly product: PolicyProduct;
  /** The sheet it pays on — frozen at issue, or built from its own triggers before products — but its
   *  covers, each of which is on its peril. */
  readonly sheet: SheetTerms;
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
    const { ref, sheet } = issuedProduct(event.data);
    // The sheet once: the policy's state is kept as JSON (snapshots, the policies read model), and the
    // event's copy and each bought cover's would triple it.
    const { term_sheet: _frozen, ...issued } = event.data;
    const { covers: _covers, ...sheetTerms } = sheet;
    return {
      status: 'active',
      issued,
      product: ref,
      sheet: sheetTerms,
      perils: event.data.perils.map((peril) => {
        const terms = productCover(sheet, peril);
        return {
          terms,
          // Policies issued before sources read the field's readings; their own organization's are those.
          data:
            event.data.data_sources?.[peril] ??
            ownFieldData(event.data.organization_id, event.data.farm_id, event.data.field_id, terms.reading),
          breached: false,
          deepestSeverityPpm: 0,
          deepestDueMinor: 0,
          paidMinor: 0,
          overpaidDueMinor: null,
          latestObservedValue: null,
          latestThreshold: null,
          latestComparison: null,
          latestCoverage: null,
          latestSkipReason: null,
          latestConclusion: null,
        };
      }),
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
          latestThreshold: event.data.threshold,
          latestComparison: event.data.comparison,
          latestCoverage: event.data.coverage ?? null,
          latestSkipReason: null,
          latestConclusion: conclusionOf(event.data, cover.terms),
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
          event.data.amount_due_minor ?? amountDueOfRecordedBreach(event.data.severity, state.issued.sum_insured_minor),
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
