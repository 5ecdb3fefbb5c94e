import { type Kysely, sql } from 'kysely';

// Idempotency keys were scoped to the token `sub` alone, so the same subject acting for another
// organization, or with other roles, was replayed an answer made for the first (another organization's
// webhook and its secret). Keys are now scoped to (sub, organization), '' standing for none, and each
// keeps the roles its answer was made under. Keys already stored cannot be attributed: they stay with
// no organization and no roles, so a retry with an organization runs afresh and one with roles is
// refused rather than replayed, for the 24 h such a key lives.
export const idempotencyKeyScope = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('idempotency_keys')
      .addColumn('organization_id', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('roles', 'text', (column) => column.notNull().defaultTo('[]'))
      .execute();
    await sql`alter table idempotency_keys alter column organization_id drop default,
      alter column roles drop default,
      drop constraint idempotency_keys_pkey,
      add constraint idempotency_keys_pkey primary key (caller, organization_id, key)`.execute(db);
  },
};
