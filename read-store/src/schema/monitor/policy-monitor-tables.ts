import type { NullableCalendarDateColumn } from '../../calendar-date-column';
import type { NullableTimestamp } from '../../columns';

/** The monitor's ledger of its daily rounds, one row per policy it has claimed at least once. An
 *  evaluation that changed nothing appends no event, so the day of the last round is kept here, not in
 *  the policy's stream; and a claim is a lease committed before the work, so no transaction stays open
 *  while a policy is evaluated. */
export interface PolicyMonitorRoundsTable {
  policy_id: string;
  /** The last day a round of the policy finished (evaluated, found unchanged, or closed). Read it through
   *  `calendarDateOf`. */
  checked_on: NullableCalendarDateColumn;
  /** The monitor working on it now, until `leased_until`; both null while nobody is. */
  lease_id: string | null;
  leased_until: NullableTimestamp;
}

export interface PolicyMonitorTables {
  policy_monitor_rounds: PolicyMonitorRoundsTable;
}
