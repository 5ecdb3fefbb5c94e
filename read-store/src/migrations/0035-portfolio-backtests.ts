import { type Kysely, sql } from 'kysely';

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
    await sql`create index portfolio_backtest_requests_order_idx on portfolio_backtest_requests (requested_at, job_id)`.execute(
      db,
    );
    await db.schema
      .createTable('portfolio_backtest_runs')
      .addColumn('job_id', 'text', (column) => column.primaryKey())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('lease_id', 'text')
      .addColumn('leased_until', 'timestamptz')
      .addColumn('attempts', 'integer', (column) => column.notNull())
      .addColumn('started_at', 'timestamptz', (column) => column.notNull())
      .addColumn('completed_at', 'timestamptz')
      .addColumn('result', 'jsonb')
      .addColumn('error', 'jsonb')
      .execute();
  },
};
