import { type Kysely, sql } from 'kysely';

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
    await sql`create index product_backtest_requests_order_idx on product_backtest_requests (requested_at, job_id)`.execute(
      db,
    );
    await db.schema
      .createTable('product_backtest_runs')
      .addColumn('job_id', 'text', (column) => column.primaryKey())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('lease_id', 'text')
      .addColumn('leased_until', 'timestamptz')
      .addColumn('attempts', 'integer', (column) => column.notNull())
      .addColumn('started_at', 'timestamptz', (column) => column.notNull())
      .addColumn('completed_at', 'timestamptz')
      .addColumn('summary', 'jsonb')
      .addColumn('error', 'jsonb')
      .execute();
    await db.schema
      .createTable('product_backtest_locations')
      .addColumn('job_id', 'text', (column) => column.notNull())
      .addColumn('position', 'integer', (column) => column.notNull())
      .addColumn('result', 'jsonb', (column) => column.notNull())
      .addPrimaryKeyConstraint('product_backtest_locations_pkey', ['job_id', 'position'])
      .execute();
  },
};
