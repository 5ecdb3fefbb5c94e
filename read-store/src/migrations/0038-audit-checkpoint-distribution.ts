import type { Kysely } from 'kysely';

// When each signed checkpoint reached Kafka (`cropcover.audit-checkpoints.v1`), kept apart from when it
// reached the sink: Kafka only distributes, so an outage of it must hold back neither the anchor nor the
// payouts that wait on it.
export const auditCheckpointDistribution = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('audit_checkpoints').addColumn('distributed_at', 'timestamptz').execute();
  },
};
