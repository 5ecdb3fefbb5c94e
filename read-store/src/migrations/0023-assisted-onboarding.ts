import type { Kysely } from 'kysely';

// Assisted onboarding (SPEC §6, issue 25): a field agent enrols a farmer who has no login yet, so the
// profile's `subject` and its farms' `owner_subject` are null until the farmer claims the profile.
export const assistedOnboarding = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('farmers')
      .alterColumn('subject', (column) => column.dropNotNull())
      .execute();
    await db.schema
      .alterTable('farms')
      .alterColumn('owner_subject', (column) => column.dropNotNull())
      .execute();
  },
};
