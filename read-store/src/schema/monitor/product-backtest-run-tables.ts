import type { LocationBacktest, ProductBacktestSummary } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../../columns';
import type { JsonDocumentColumn } from './portfolio-backtest-run-tables';

/** The run of a requested product backtest, written by the monitor that claims it: a lease while it runs,
 *  then its summary or why it failed. */
export interface ProductBacktestRunsTable {
  job_id: string;
  status: 'running' | 'succeeded' | 'failed';
  lease_id: string | null;
  leased_until: NullableTimestamp;
  attempts: number;
  started_at: Timestamp;
  completed_at: NullableTimestamp;
  summary: ColumnType<ProductBacktestSummary | null, string | null, string | null>;
  /** `{code, detail}` once failed. */
  error: JsonDocumentColumn;
}

/** Each location's seasons and statistics of a succeeded run, in the order asked (`position`), written
 *  with the run's success: the query API pages them. */
export interface ProductBacktestLocationsTable {
  job_id: string;
  position: number;
  result: ColumnType<LocationBacktest, string, string>;
}

export interface ProductBacktestRunTables {
  product_backtest_runs: ProductBacktestRunsTable;
  product_backtest_locations: ProductBacktestLocationsTable;
}
