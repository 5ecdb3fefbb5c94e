import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

// The tables of a kind of leased job (queries/leased-jobs.ts), as the migrations that made them created
// them. Migrations already run depend on this staying as it is: a later change to one kind's tables goes
// in a migration of its own.

/** Orders a kind's requests the way runners claim them: oldest first. */
export const createJobClaimOrderIndex = async (db: Kysely<unknown>, requests: string): Promise<void> => {
  await sql`create index ${sql.id(`${requests}_order_idx`)} on ${sql.table(requests)} (requested_at, job_id)`.execute(
    db,
  );
};

/** Creates a kind's run table: the lease columns, then the kind's own `outcome` columns, then `error`. */
export const createLeasedRunTable = async (
  db: Kysely<unknown>,
  runs: string,
  outcome: (table: CreateTableBuilder<string>) => CreateTableBuilder<string>,
): Promise<void> => {
  const leased = db.schema
    .createTable(runs)
    .addColumn('job_id', 'text', (column) => column.primaryKey())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('lease_id', 'text')
    .addColumn('leased_until', 'timestamptz')
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('started_at', 'timestamptz', (column) => column.notNull())
    .addColumn('completed_at', 'timestamptz');
  await outcome(leased).addColumn('error', 'jsonb').execute();
};
