import { type Kysely, sql } from 'kysely';

// Term sheets (TERM-SHEETS.md §2.4): a history item of a cover of several phases shows each phase beside
// the cover's own figures, as `TriggerEvaluated.phases` records them, in the API's form (amounts in major
// units). Null for a single-phase cover, which is what every item was before.
//
// The policies projection keeps the domain's policy aggregate as JSON, and that aggregate now holds the
// sheet the policy pays on, its product version and what each cover's last evaluation showed: a row
// written before would be evolved without them. So the projection is replayed from the log — its tables
// emptied and its checkpoint removed; the projector refills them on start, as `npm run rebuild` would.
// Until it has caught up, policies are missing from the lists (the log, and so every command, is
// untouched). Numbered 0018: 0018–0021 are this work's.
export const termSheetPhases = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('policy_evaluations').addColumn('phases', 'jsonb').execute();
    await sql`truncate policies, policy_counts, policy_evaluations, policy_payouts`.execute(db);
    await sql`delete from projection_checkpoints where name = 'policies'`.execute(db);
  },
};
