import { type Kysely, sql } from 'kysely';

// A farmer's erasure scrubs the farm name from their policies (SPEC §6): found by a column of its own and
// its index rather than by reading every policy's aggregate. Policies issued before sealing name no owner
// (null); the rows kept already take theirs from the aggregate.
export const policyOwnerFarmer = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table policies add column owner_farmer_id text`.execute(db);
    await sql`update policies set owner_farmer_id = aggregate->'issued'->>'owner_farmer_id'
      where aggregate->'issued' ? 'owner_farmer_id'`.execute(db);
    await sql`create index policies_owner_farmer_idx on policies (owner_farmer_id)
      where owner_farmer_id is not null`.execute(db);
  },
};
