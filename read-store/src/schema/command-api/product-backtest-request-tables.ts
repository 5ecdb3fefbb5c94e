import type {
  BacktestLocation,
  IndexSourceKind,
  ObservedOutcome,
  Peril,
  PolicyProduct,
  ReadingIndex,
  TermSheet,
} from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../columns';

type Json<T> = ColumnType<T, string, string>;

/** A location as asked for, with its source's kind and index as registered when the job was asked for and
 *  the series it names there (`series`: the grid cell holding a posted point, a station id, a unit id). */
export type BacktestSourceLocation = BacktestLocation & {
  readonly kind: IndexSourceKind;
  readonly index: ReadingIndex;
  readonly series: string;
};

/** A product backtest asked for (TERM-SHEETS.md §5.1), written by the command API when it answers 202: the
 *  sheet it froze (a product's version as it was, or the one given inline) and what to run it on. Its run
 *  is the monitor's row (`product_backtest_runs`); a request without one is queued. */
export interface ProductBacktestRequestsTable {
  job_id: string;
  organization_id: string;
  /** Null for a sheet given inline. */
  product: ColumnType<PolicyProduct | null, string | null, string | null>;
  sheet: Json<TermSheet>;
  perils: Json<Peril[]>;
  season: Json<{ from: string; to: string }>;
  year_from: number;
  year_to: number;
  locations: Json<BacktestSourceLocation[]>;
  /** `{outcomes, loss_threshold}` when the losses observed were given. */
  basis: ColumnType<{ outcomes: ObservedOutcome[]; loss_threshold: number } | null, string | null, string | null>;
  requested_by: string;
  requested_at: Timestamp;
}

export interface ProductBacktestRequestTables {
  product_backtest_requests: ProductBacktestRequestsTable;
}
