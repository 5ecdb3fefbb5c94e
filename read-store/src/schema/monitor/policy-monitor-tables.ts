import type { JSONColumnType } from 'kysely';
import type { CalendarDateColumn, NullableCalendarDateColumn } from '../../calendar-date-column';
import type { NullableTimestamp, PositionColumn, Timestamp } from '../../columns';
import type { MonitoredPerilColumns } from '../../queries/monitored-days';

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

/** Each policy's state as of one revision of its stream, kept by the monitor so loading a policy reads
 *  only the events after it (domain `policy-snapshot.ts`). A cache of the log: a missing row, or one of
 *  another state version or not matching its digest, means the stream is read whole, and the monitor
 *  writes the row again. */
export interface PolicySnapshotsTable {
  policy_id: string;
  /** The revision of the stream's last event the state includes. */
  stream_revision: number;
  /** Where that event is in the log. */
  position_commit: PositionColumn;
  position_prepare: PositionColumn;
  state_version: number;
  /** The state as JSON text, exactly as its digest was taken. */
  state: string;
  digest: string;
  /** The farmer whose farm the policy covers, so their erasure finds its snapshots; null before sealing. */
  owner_farmer_id: string | null;
}

/** Every day a round evaluated a policy, recorded in the log or not (SPEC §7 "What the log records"):
 *  the log holds only the days whose conclusion changed, and the audit replays any day from this row,
 *  the stream up to `stream_revision` and the readings as they stood at `evaluated_at`. */
export interface PolicyMonitorDaysTable {
  policy_id: string;
  /** Read it through `calendarDateOf`. */
  checked_on: CalendarDateColumn;
  evaluation_id: string;
  evaluated_at: Timestamp;
  /** The revision of the policy's stream the evaluation was decided on. */
  stream_revision: number;
  /** Whether the evaluation was appended to the log (its conclusion changed). */
  recorded: boolean;
  /** Each peril as the evaluation decided it, its digest apart: read both through
   *  `monitoredPerilsFromColumns` (queries/monitored-days.ts). */
  perils: JSONColumnType<MonitoredPerilColumns[]>;
  /** Each peril's readings digest, 32 bytes, at its place in `perils`; null where it has none. */
  digests: (Buffer | null)[];
}

export interface PolicyMonitorTables {
  policy_monitor_rounds: PolicyMonitorRoundsTable;
  policy_monitor_days: PolicyMonitorDaysTable;
  policy_snapshots: PolicySnapshotsTable;
}
