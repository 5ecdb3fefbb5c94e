import { type Kysely, sql } from 'kysely';

// Farmers own their data (SPEC §6, issue 25): `farm_organizations` holds the farmer's unrevoked access
// grants, live or expired. Before, a row was a link made by issuing a policy; those rows become the
// `insurance` grants they are read as from the log (`FarmLinkedToOrganization`, origin `policy_issued`),
// so no insurer loses a farm it insures today without the farmer acting, and the owner sees where each
// came from. A rebuild makes the same rows from the log.
export const farmAccessGrants = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('farm_organizations')
      .addColumn('purposes', 'jsonb', (column) => column.notNull().defaultTo(sql`'["insurance"]'::jsonb`))
      .addColumn('origin', 'text', (column) => column.notNull().defaultTo('policy_issued'))
      .addColumn('expires_on', 'date')
      .execute();
    await sql`update farm_organizations set relationship = 'insurance' where relationship = 'insurer'`.execute(db);
    await db.schema
      .alterTable('farm_organizations')
      .alterColumn('purposes', (column) => column.dropDefault())
      .alterColumn('origin', (column) => column.dropDefault())
      .execute();
  },
};
