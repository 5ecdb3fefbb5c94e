import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../../columns';

/** A JSON document kept as jsonb: it goes in as JSON text and comes back parsed. */
export type JsonDocumentColumn = ColumnType<unknown, string | null, string | null>;

/** The columns every kind of job's run has (queries/leased-jobs.ts), written by the monitor that claims
 *  it: a lease while it runs (a monitor that dies leaves it to the next one once the lease is over), then
 *  how it ended. */
export interface LeasedRunColumns {
  job_id: string;
  status: 'running' | 'succeeded' | 'failed';
  /** The monitor working on it, until `leased_until`; null once finished. */
  lease_id: string | null;
  leased_until: NullableTimestamp;
  /** How many times a monitor claimed it: a job that keeps killing its monitor is given up. */
  attempts: number;
  started_at: Timestamp;
  completed_at: NullableTimestamp;
  /** `{code, detail}` once failed. */
  error: JsonDocumentColumn;
}
