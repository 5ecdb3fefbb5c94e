import type { ReadinessCheck } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { ReadModels } from '../read-models';

/** The id the log's checkpoints carry in their origin (migration 0042 created it with the log). */
export const loadAuditLogId = async (db: Kysely<ReadModels>): Promise<string> => {
  const row = await db.selectFrom('audit_log_identity').select('log_id').executeTakeFirstOrThrow();
  return row.log_id;
};

/** `/readyz` of every process (SPEC §10): the checkpoint sink as the integrator last found it. Failing, the
 *  check is named in the 503 and its reason goes to the log. */
export const checkpointSinkReadinessCheck = (db: Kysely<ReadModels>): ReadinessCheck => ({
  name: 'audit_checkpoint_sink',
  check: async () => {
    const failing = await db
      .selectFrom('audit_checkpoint_sink_status')
      .select(['failing_since', 'reason'])
      .where('failing_since', 'is not', null)
      .executeTakeFirst();
    if (failing)
      throw new Error(
        `the audit checkpoint sink fails since ${failing.failing_since?.toISOString()}: ${failing.reason}; breach webhooks wait for it`,
      );
  },
});
