import { decodeEvent } from '@cropcover/application';
import type { TriggerBreached } from '@cropcover/contracts';
import { policyStream, triggerBreachedDelivery } from '@cropcover/domain';
import type { EventStore, GlobalPosition } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { TraceCarrier } from '@cropcover/runtime';
import { sql, type Transaction } from 'kysely';

/** A breach of the log, wherever the dispatcher read it (the log itself or Kafka). */
export interface LoggedBreach {
  readonly eventId: string;
  readonly position: GlobalPosition;
  readonly organizationId: string;
  readonly breach: TriggerBreached;
  /** The trace the breach was read in; its deliveries' sends continue it. Empty when nothing is traced. */
  readonly trace: TraceCarrier;
}

/** The organization that owns the policy, from its first event. The log, not a read model: the policies
 *  projection may lag behind the dispatcher. */
const policyOrganization = async (eventStore: EventStore, policyId: string): Promise<string> => {
  const [first] = await eventStore.readStream(policyStream(policyId), { limit: 1 });
  if (!first) throw new Error(`policy ${policyId} has no events`);
  const issued = decodeEvent(first);
  if (issued.type !== 'PolicyIssued') throw new Error(`policy ${policyId} does not start with PolicyIssued`);
  return issued.data.organization_id;
};

/** The organization of the breached policy: the breach's own, or for a breach recorded before it carried
 *  one, its policy's. No upcaster can fill those in: the metadata's organization_id is the actor's, and an
 *  admin of another organization may evaluate the policy. */
export const breachOrganization = async (eventStore: EventStore, breach: TriggerBreached): Promise<string> =>
  breach.organization_id ?? (await policyOrganization(eventStore, breach.policy_id));

/** One pending delivery per subscription of the organization that was created before the breach in the
 *  log and is still active. Recording it again (a batch after a crash, a Kafka message redelivered)
 *  adds nothing: deliveries are unique on event and subscription. */
export const recordBreachDeliveries = async (
  trx: Transaction<ReadModels>,
  { eventId, position, organizationId, breach, trace }: LoggedBreach,
  now: Date,
): Promise<void> => {
  const targets = await trx
    .selectFrom('webhook_targets')
    .select('webhook_id')
    .where('organization_id', '=', organizationId)
    .where('is_active', '=', true)
    .where(
      sql<boolean>`(created_commit_position, created_prepare_position) < (${position.commit.toString()}::numeric, ${position.prepare.toString()}::numeric)`,
    )
    .execute();
  if (targets.length === 0) return;
  const payload = JSON.stringify(triggerBreachedDelivery(eventId, organizationId, breach));
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map(({ webhook_id }) => ({
        event_id: eventId,
        webhook_id,
        policy_id: breach.policy_id,
        payload,
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        created_at: now,
        traceparent: trace.traceparent ?? null,
        tracestate: trace.tracestate ?? null,
      })),
    )
    .onConflict((conflict) => conflict.columns(['event_id', 'webhook_id']).doNothing())
    .execute();
};
