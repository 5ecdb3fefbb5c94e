import type { PhaseEvaluation } from '@cropcover/contracts';
import type { IssuedPolicy } from '@cropcover/domain';
import type { ColumnType } from 'kysely';
import type { CalendarDateColumn, NullableCalendarDateColumn } from '../../calendar-date-column';
import type { NullableTimestamp, Timestamp } from '../../columns';

// The insurance read models. Money is bigint minor units (node-postgres returns int8 as a JS bigint).

export type MinorUnitsColumn = ColumnType<bigint, bigint | number, bigint | number>;

/** The policy aggregate as the domain's evolvePolicy leaves it; goes in as JSON text. */
export type PolicyAggregateColumn = ColumnType<IssuedPolicy, string, string>;

export interface PoliciesTable {
  policy_id: string;
  organization_id: string;
  environment: string;
  farm_id: string;
  field_id: string;
  farm_name: string | null;
  /** The farmer who owns the farm, whose erasure scrubs farm_name; null for a policy issued before sealing. */
  owner_farmer_id: string | null;
  field_name: string | null;
  field_area_ha: number | null;
  field_location: string | null;
  crop_type: string | null;
  sum_insured_minor: MinorUnitsColumn;
  currency: string;
  premium_minor: MinorUnitsColumn;
  perils: string[];
  status: string;
  issued_at: Timestamp;
  term_start: CalendarDateColumn;
  term_end: CalendarDateColumn;
  platform_version: string;
  next_monitoring_date: NullableCalendarDateColumn;
  /** Frozen trigger terms, payouts and monitoring state: the policy view and next_monitoring_date are
   *  computed from it by the domain's own functions, so read side and command side cannot disagree. */
  aggregate: PolicyAggregateColumn;
  /** Revision of the last event of `policy-<id>` applied to the row; guards against applying one twice. */
  stream_revision: number;
}

/** How many policies an organization has per status and set of perils: the list's `total` without the
 *  filter on farm_id is a sum over at most 4 × 15 rows, never a count over every policy. */
export interface PolicyCountsTable {
  organization_id: string;
  status: string;
  /** The policy's perils, sorted: one row per set, whatever order they were issued in. */
  perils: string[];
  policies: ColumnType<bigint, number, number>;
}

/** One row per peril per live evaluation (TriggerEvaluated). */
export interface PolicyEvaluationsTable {
  evaluation_id: string;
  peril: string;
  policy_id: string;
  organization_id: string;
  trigger_index: string;
  observed_value: number;
  threshold: number;
  breached: boolean;
  severity: number;
  as_of: CalendarDateColumn;
  window_start: CalendarDateColumn;
  window_end: CalendarDateColumn;
  evaluated_at: Timestamp;
  /** The coverage the evaluation was judged on: days of the window with a reading, and the window's days.
   *  Null when its TriggerEvaluated has none (recorded before coverage was). */
  days_with_reading: number | null;
  days_in_window: number | null;
  /** Each phase of a cover of several phases, as the history shows it; null for a single phase. jsonb,
   *  written in the batch's JSON recordset. */
  phases: ColumnType<PhaseEvaluation[] | null, PhaseEvaluation[] | null, PhaseEvaluation[] | null>;
  /** The payout this peril got in this evaluation, if any. */
  payout_id: string | null;
  /** The overpayment this evaluation recorded for the peril (a corrected reading lowered what it is
   *  due below what it was paid), if any: paid, now due, in `overpayment_currency`. */
  overpayment_paid_minor: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  overpayment_due_minor: ColumnType<bigint | null, bigint | number | null, bigint | number | null>;
  overpayment_currency: string | null;
  overpayment_recorded_at: NullableTimestamp;
}

export interface PolicyPayoutsTable {
  payout_id: string;
  policy_id: string;
  organization_id: string;
  peril: string;
  evaluation_id: string;
  amount_minor: MinorUnitsColumn;
  currency: string;
  status: 'approved' | 'settled';
  approved_at: Timestamp;
  settled_at: NullableTimestamp;
}

export interface PolicyTables {
  policies: PoliciesTable;
  policy_evaluations: PolicyEvaluationsTable;
  policy_payouts: PolicyPayoutsTable;
  policy_counts: PolicyCountsTable;
}
