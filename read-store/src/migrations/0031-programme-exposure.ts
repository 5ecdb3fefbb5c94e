import { type Kysely, sql } from 'kysely';

// The exposure of each programme per zone and per (zone, peril), and the policies reserved in it (SPEC
// §7 "Exposure"). Utilisation is computed by PostgreSQL from the row, so sorting by it can use an index.
const exposureTable = async (db: Kysely<unknown>, name: string, withPeril: boolean): Promise<void> => {
  await sql`create table ${sql.table(name)} (
    programme_id text not null,
    source_id text not null,
    location text not null,
    ${withPeril ? sql`peril text not null,` : sql``}
    policies integer not null,
    sum_insured_minor bigint not null,
    premium_minor bigint not null,
    capacity_minor bigint,
    utilisation numeric generated always as (
      case when capacity_minor > 0 then round(sum_insured_minor::numeric / capacity_minor, 6)
           when capacity_minor = 0 then 0 end
    ) stored,
    primary key (programme_id, source_id, location${withPeril ? sql`, peril` : sql``})
  )`.execute(db);
  await sql`create index ${sql.id(`${name}_utilisation_idx`)} on ${sql.table(name)}
    (programme_id, utilisation desc nulls last, source_id, location)`.execute(db);
};

export const programmeExposure = {
  async up(db: Kysely<unknown>): Promise<void> {
    await exposureTable(db, 'programme_zone_exposure', false);
    await exposureTable(db, 'programme_zone_peril_exposure', true);
    await db.schema
      .createTable('programme_policies')
      .addColumn('policy_id', 'text', (column) => column.primaryKey())
      .addColumn('programme_id', 'text', (column) => column.notNull())
      .addColumn('issued_on', 'date', (column) => column.notNull())
      .addColumn('sum_insured_minor', 'bigint', (column) => column.notNull())
      .addColumn('premium_minor', 'bigint', (column) => column.notNull())
      .addColumn('claims_minor', 'bigint', (column) => column.notNull())
      .addColumn('claims_revision', 'integer', (column) => column.notNull())
      .addColumn('released_reason', 'text')
      .execute();
    await sql`create index programme_policies_period_idx on programme_policies (programme_id, issued_on)`.execute(db);
  },
};
