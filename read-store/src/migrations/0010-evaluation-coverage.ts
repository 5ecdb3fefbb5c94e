import type { Kysely } from 'kysely';

// The coverage each history item was judged on (SPEC §7 Completeness, Provenance): of the window's days,
// how many held a reading. `TriggerEvaluated` carries it; the history now keeps it too. Both null on a row
// of an evaluation recorded before coverage was (the event has none), and on rows projected before this
// column existed until the read models are rebuilt (`npm run rebuild`), which fills them from the log.
// Numbered 0010: 0008 and 0009 belong to other branches.
export const evaluationCoverage = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('policy_evaluations')
      .addColumn('days_with_reading', 'integer')
      .addColumn('days_in_window', 'integer')
      .execute();
  },
};
