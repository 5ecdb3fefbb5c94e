import { decodeEvent } from '@cropcover/application';
import type { TriggerBreached } from '@cropcover/contracts';
import { policyStream, triggerBreachedDelivery } from '@cropcover/domain';
import type { EventStore, GlobalPosition } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { TraceCarrier } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';

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

/** Whether deliveries wait for a signed checkpoint covering their breach (SPEC §7 Audit): on wherever the
 *  audit log is (a signing key, and the log on PostgreSQL). */
export interface AuditGate {
  readonly awaitCheckpoint: boolean;
}

/** One pending delivery per breach and subscription of its organization that was created before the
 *  breach in the log and is still active, for a whole batch of breaches in one statement; behind the audit
 *  gate, it is not due until a signed checkpoint covers the breach (checkpointed-deliveries.ts). Recording a
 *  breach again (a batch after a crash, a Kafka batch redelivered) adds nothing: deliveries are unique on
 *  event and subscription, and the insert skips those that exist. Resolves with how many it added. */
export const recordBreachDeliveries = async (
  db: Kysely<ReadModels>,
  breaches: readonly LoggedBreach[],
  now: Date,
  { awaitCheckpoint }: AuditGate,
): Promise<number> => {
  if (breaches.length === 0) return 0;
  const column = <T>(of: (breach: LoggedBreach) => T): T[] => breaches.map(of);
  const { numAffectedRows } = await sql`
    insert into webhook_deliveries
      (event_id, webhook_id, policy_id, payload, status, attempt_count, next_attempt_at, created_at, traceparent, tracestate,
       awaiting_checkpoint, breach_commit_position, breach_prepare_position)
    select b.event_id, t.webhook_id, b.policy_id, b.payload, 'pending', 0, ${now}, ${now}, b.traceparent, b.tracestate,
           ${awaitCheckpoint}, b.commit_position, b.prepare_position
      from unnest(
        ${column((b) => b.eventId)}::text[],
        ${column((b) => b.organizationId)}::text[],
        ${column((b) => b.breach.policy_id)}::text[],
        ${column((b) => JSON.stringify(triggerBreachedDelivery(b.eventId, b.organizationId, b.breach)))}::text[],
        ${column((b) => b.position.commit.toString())}::numeric[],
        ${column((b) => b.position.prepare.toString())}::numeric[],
        ${column((b) => b.trace.traceparent ?? null)}::text[],
        ${column((b) => b.trace.tracestate ?? null)}::text[]
      ) as b(event_id, organization_id, policy_id, payload, commit_position, prepare_position, traceparent, tracestate)
      join webhook_targets t
        on t.organization_id = b.organization_id
       and t.is_active
       and (t.created_commit_position, t.created_prepare_position) < (b.commit_position, b.prepare_position)
    on conflict (event_id, webhook_id) do nothing`.execute(db);
  return Number(numAffectedRows ?? 0n);
};
