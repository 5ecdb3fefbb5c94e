import type { Kysely } from 'kysely';
import { createJobClaimOrderIndex, createLeasedRunTable } from './leased-job-tables';

// The as-if portfolio backtest jobs (SPEC §7 "Portfolio backtest"): the request the command API records,
// and the run a monitor claims and finishes, each table with its one writer.
export const portfolioBacktests = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('portfolio_backtest_requests')
      .addColumn('job_id', 'text', (column) => column.primaryKey())
      .addColumn('programme_id', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('seasons', 'integer', (column) => column.notNull())
      .addColumn('as_of', 'date', (column) => column.notNull())
      .addColumn('perils', 'jsonb')
      .addColumn('apply_treaties', 'boolean', (column) => column.notNull())
      .addColumn('requested_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await createJobClaimOrderIndex(db, 'portfolio_backtest_requests');
    await createLeasedRunTable(db, 'portfolio_backtest_runs', (table) => table.addColumn('result', 'jsonb'));
  },
};
