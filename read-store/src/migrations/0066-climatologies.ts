import type { Kysely } from 'kysely';
import { createJobClaimOrderIndex, createLeasedRunTable } from './leased-job-tables';

// Climatologies (INDEX-DATA §3): the request the command API records, the run a monitor claims and
// finishes, and the immutable versions it writes with each location's normals.
export const climatologies = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('climatology_requests')
      .addColumn('job_id', 'text', (column) => column.primaryKey())
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('year_from', 'integer', (column) => column.notNull())
      .addColumn('year_to', 'integer', (column) => column.notNull())
      .addColumn('period', 'jsonb', (column) => column.notNull())
      .addColumn('stat', 'text', (column) => column.notNull())
      .addColumn('min_years', 'integer', (column) => column.notNull())
      .addColumn('requested_by', 'text', (column) => column.notNull())
      .addColumn('requested_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await createJobClaimOrderIndex(db, 'climatology_requests');
    await createLeasedRunTable(db, 'climatology_runs', (table) => table.addColumn('version', 'integer'));
    await db.schema
      .createTable('climatologies')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull())
      .addColumn('digest', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('year_from', 'integer', (column) => column.notNull())
      .addColumn('year_to', 'integer', (column) => column.notNull())
      .addColumn('period', 'jsonb', (column) => column.notNull())
      .addColumn('stat', 'text', (column) => column.notNull())
      .addColumn('min_years', 'integer', (column) => column.notNull())
      .addColumn('readings_as_of', 'timestamptz', (column) => column.notNull())
      .addColumn('computed_at', 'timestamptz', (column) => column.notNull())
      .addColumn('job_id', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('climatologies_pkey', ['source_id', 'name', 'version'])
      .execute();
    await db.schema
      .createTable('climatology_normals')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull())
      .addColumn('location', 'text', (column) => column.notNull())
      .addColumn('periods', 'jsonb', (column) => column.notNull())
      .addPrimaryKeyConstraint('climatology_normals_pkey', ['source_id', 'name', 'version', 'location'])
      .execute();
  },
};
