import type { LocationBacktest, ProductBacktestSummary } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { LeasedRunColumns } from './leased-run-columns';

/** The run of a requested product backtest, then its summary once succeeded. */
export interface ProductBacktestRunsTable extends LeasedRunColumns {
  summary: ColumnType<ProductBacktestSummary | null, string | null, string | null>;
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
