import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../../columns';

/** A JSON document kept as jsonb: it goes in as JSON text and comes back parsed. */
export type JsonDocumentColumn = ColumnType<unknown, string | null, string | null>;

/** The run of a requested backtest, written by the monitor that claims it: a lease while it runs (a
 *  monitor that dies leaves it to the next one once the lease is over), then its result or failure. */
export interface PortfolioBacktestRunsTable {
  job_id: string;
  status: 'running' | 'succeeded' | 'failed';
  /** The monitor working on it, until `leased_until`; null once finished. */
  lease_id: string | null;
  leased_until: NullableTimestamp;
  /** How many times a monitor claimed it: a job that keeps killing its monitor is given up. */
  attempts: number;
  started_at: Timestamp;
  completed_at: NullableTimestamp;
  /** The PortfolioBacktestResult once succeeded. */
  result: JsonDocumentColumn;
  /** `{code, detail}` once failed. */
  error: JsonDocumentColumn;
}

export interface PortfolioBacktestRunTables {
  portfolio_backtest_runs: PortfolioBacktestRunsTable;
}
