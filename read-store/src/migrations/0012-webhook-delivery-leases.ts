import type { Kysely } from 'kysely';

// A delivery was claimed with a row lock held across the HTTP send: an open transaction for as long as a
// receiver took to answer, which held back the server's snapshot horizon and so every reader of the log.
// A claim is now a lease, committed before the send and cleared when the attempt is recorded; a sender
// that dies mid-send leaves a lease that simply runs out.
export const webhookDeliveryLeases = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('webhook_deliveries')
      .addColumn('lease_id', 'uuid')
      .addColumn('leased_until', 'timestamptz')
      .execute();
  },
};
