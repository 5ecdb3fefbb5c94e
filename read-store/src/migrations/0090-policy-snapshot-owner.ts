import { type Kysely, sql } from 'kysely';

// A farmer's erasure (SPEC §6) drops the monitor's snapshots of their policies, which hold the farm name
// opened: found by a column of their own and its index, not by a pattern over every snapshot's text.
// Snapshots of policies issued before sealing name no owner (null).
export const policySnapshotOwner = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table policy_snapshots add column owner_farmer_id text`.execute(db);
    await sql`update policy_snapshots set owner_farmer_id = state::json->'issued'->>'owner_farmer_id'`.execute(db);
    await sql`create index policy_snapshots_owner_farmer_idx on policy_snapshots (owner_farmer_id)
      where owner_farmer_id is not null`.execute(db);
  },
};
