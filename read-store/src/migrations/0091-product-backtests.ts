import type { Kysely } from 'kysely';
import { createJobClaimOrderIndex, createLeasedRunTable } from './leased-job-tables';

// Product backtests (TERM-SHEETS.md §5.1): the request the command API records, the run a monitor claims
// and finishes, and each location's results it writes with its success.
export const productBacktests = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('product_backtest_requests')
      .addColumn('job_id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('product', 'jsonb')
      .addColumn('sheet', 'jsonb', (column) => column.notNull())
      .addColumn('perils', 'jsonb', (column) => column.notNull())
      .addColumn('season', 'jsonb', (column) => column.notNull())
      .addColumn('year_from', 'integer', (column) => column.notNull())
      .addColumn('year_to', 'integer', (column) => column.notNull())
      .addColumn('locations', 'jsonb', (column) => column.notNull())
      .addColumn('basis', 'jsonb')
      .addColumn('requested_by', 'text', (column) => column.notNull())
      .addColumn('requested_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await createJobClaimOrderIndex(db, 'product_backtest_requests');
    await createLeasedRunTable(db, 'product_backtest_runs', (table) => table.addColumn('summary', 'jsonb'));
    await db.schema
      .createTable('product_backtest_locations')
      .addColumn('job_id', 'text', (column) => column.notNull())
      .addColumn('position', 'integer', (column) => column.notNull())
      .addColumn('result', 'jsonb', (column) => column.notNull())
      .addPrimaryKeyConstraint('product_backtest_locations_pkey', ['job_id', 'position'])
      .execute();
  },
};
