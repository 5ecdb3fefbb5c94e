import { decodeEvent, isOneOf } from '@cropcover/application';
import type { WebhookSubscriptionEvent } from '@cropcover/contracts';
import type { EventStore, GlobalPosition, RecordedEvent } from '@cropcover/eventstore';
import type { Projection } from '@cropcover/projector';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock } from '@cropcover/runtime';
import type { Transaction } from 'kysely';
import { type AuditGate, breachOrganization, recordBreachDeliveries } from './breach-deliveries';

/** The dispatcher's checkpoint name. Not one of the read-model projections: a rebuild must never
 *  record past breaches again, or every subscriber would be sent them a second time. */
export const DELIVERY_RECORDER_NAME = 'webhook-dispatcher';

const isSubscriptionEvent = isOneOf(
  new Set<WebhookSubscriptionEvent['type']>(['WebhookSubscriptionCreated', 'WebhookSubscriptionDeactivated']),
);
const isBreach = isOneOf(new Set(['TriggerBreached'] as const));

const recordSubscriptionEvent = async (
  trx: Transaction<ReadModels>,
  event: WebhookSubscriptionEvent,
  position: GlobalPosition,
): Promise<void> => {
  if (event.type === 'WebhookSubscriptionCreated') {
    const { webhook_id, organization_id, url } = event.data;
    await trx
      .insertInto('webhook_targets')
      .values({
        webhook_id,
        organization_id,
        url,
        is_active: true,
        created_commit_position: position.commit.toString(),
        created_prepare_position: position.prepare.toString(),
      })
      .onConflict((conflict) => conflict.column('webhook_id').doNothing())
      .execute();
    return;
  }
  const { webhook_id } = event.data;
  await trx.updateTable('webhook_targets').set({ is_active: false }).where('webhook_id', '=', webhook_id).execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'abandoned', next_attempt_at: null })
    .where('webhook_id', '=', webhook_id)
    .where('status', '=', 'pending')
    .execute();
};

/** A breach of the log with what its deliveries need; the organization is read from the policy only for a
 *  breach recorded before it carried one. */
const loggedBreachOf = async (recorded: RecordedEvent<'TriggerBreached'>, eventStore: EventStore) => {
  const breach = decodeEvent(recorded).data;
  return {
    eventId: recorded.metadata.event_id,
    position: recorded.position,
    organizationId: await breachOrganization(eventStore, breach),
    breach,
    // Read from the log, not Kafka: the deliveries continue the trace of the append itself.
    trace: { traceparent: recorded.metadata.traceparent, tracestate: recorded.metadata.tracestate },
  };
};

/** Where each breach sits in the log, for the Kafka consumer, whose messages do not say. */
const noteBreachPositions = async (
  trx: Transaction<ReadModels>,
  breaches: readonly RecordedEvent<'TriggerBreached'>[],
): Promise<void> => {
  if (breaches.length === 0) return;
  await trx
    .insertInto('webhook_breach_positions')
    .values(
      breaches.map(({ metadata, position }) => ({
        event_id: metadata.event_id,
        commit_position: position.commit.toString(),
        prepare_position: position.prepare.toString(),
      })),
    )
    .onConflict((conflict) => conflict.column('event_id').doNothing())
    .execute();
};

export interface DeliveryRecorderOptions {
  /** False when breaches come from Kafka instead: the log then only keeps the targets in step. */
  readonly breachesFromLog: boolean;
  /** Told when breaches added deliveries, before the transaction commits: senders need waking only then. */
  readonly onBreachRecorded?: () => void;
  readonly auditGate: AuditGate;
}

/** Follows the log: subscription events keep the targets in step and, without Kafka, each TriggerBreached
 *  becomes one pending delivery per subscription of the policy's organization active at that point of the
 *  log; with Kafka, each breach's position is noted for the consumer. Runs as a projection, so
 *  deliveries, targets, positions and checkpoint commit together. */
export const deliveryRecorder = (
  eventStore: EventStore,
  clock: Clock,
  { breachesFromLog, onBreachRecorded, auditGate }: DeliveryRecorderOptions,
): Projection => ({
  name: DELIVERY_RECORDER_NAME,
  tables: [],
  apply: async (trx, events) => {
    // Breaches between two subscription events are recorded together, in one statement; a subscription
    // event is applied only after the breaches before it, so each breach sees the targets of its point in
    // the log.
    let breaches: RecordedEvent<'TriggerBreached'>[] = [];
    const recordBreaches = async (): Promise<void> => {
      const taken = breaches;
      breaches = [];
      if (!breachesFromLog) return noteBreachPositions(trx, taken);
      const logged = await Promise.all(taken.map((breach) => loggedBreachOf(breach, eventStore)));
      if ((await recordBreachDeliveries(trx, logged, clock.now(), auditGate)) > 0) onBreachRecorded?.();
    };
    for (const event of events) {
      if (isBreach(event)) breaches.push(event);
      else if (isSubscriptionEvent(event)) {
        await recordBreaches();
        await recordSubscriptionEvent(trx, decodeEvent(event), event.position);
      }
    }
    await recordBreaches();
  },
});
