import { type Kysely, sql } from 'kysely';

// Revisions after payout and finality (SPEC §7). Each history item shows the overpayment its evaluation
// recorded for the peril (PayoutOverpaymentRecorded): what was paid, what is now due, when. Null on every
// other row.
//
// The policies projection keeps the domain's policy aggregate as JSON, and that aggregate now holds
// what each peril's deepest breach was worth, its last recorded overpayment and when the policy closed:
// a row written before would be evolved without them. So the projection is replayed from the log — its
// tables emptied and its checkpoint removed; the projector refills them on start, as `npm run rebuild`
// would. Until it has caught up, policies are missing from the lists (the log, and so every command, is
// untouched).
export const payoutFinality = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('policy_evaluations')
      .addColumn('overpayment_paid_minor', 'bigint')
      .addColumn('overpayment_due_minor', 'bigint')
      .addColumn('overpayment_currency', 'text')
      .addColumn('overpayment_recorded_at', 'timestamptz')
      .execute();
    await sql`truncate policies, policy_counts, policy_evaluations, policy_payouts`.execute(db);
    await sql`delete from projection_checkpoints where name = 'policies'`.execute(db);
  },
};
