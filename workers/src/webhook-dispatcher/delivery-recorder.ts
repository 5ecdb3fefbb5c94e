import { decodeEvent, isOneOf } from '@cropcover/application';
import type { WebhookSubscriptionEvent } from '@cropcover/contracts';
import type { EventStore, GlobalPosition, RecordedEvent } from '@cropcover/eventstore';
import type { Projection } from '@cropcover/projector';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock } from '@cropcover/runtime';
import type { Transaction } from 'kysely';
import { breachOrganization, recordBreachDeliveries } from './breach-deliveries';

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

const recordBreach = async (
  trx: Transaction<ReadModels>,
  recorded: RecordedEvent<'TriggerBreached'>,
  eventStore: EventStore,
  now: Date,
): Promise<void> => {
  const breach = decodeEvent(recorded).data;
  const organizationId = await breachOrganization(eventStore, breach);
  await recordBreachDeliveries(
    trx,
    {
      eventId: recorded.metadata.event_id,
      position: recorded.position,
      organizationId,
      breach,
      // Read from the log, not Kafka: the deliveries continue the trace of the append itself.
      trace: { traceparent: recorded.metadata.traceparent, tracestate: recorded.metadata.tracestate },
    },
    now,
  );
};

export interface DeliveryRecorderOptions {
  /** False when breaches come from Kafka instead: the log then only keeps the targets in step. */
  readonly breachesFromLog: boolean;
  /** Told of each breach recorded, before its transaction commits: senders need waking only then. */
  readonly onBreachRecorded?: () => void;
}

/** Follows the log: subscription events keep the targets in step and, without Kafka, each TriggerBreached
 *  becomes one pending delivery per subscription of the policy's organization active at that point of the
 *  log. Runs as a projection, so deliveries, targets and checkpoint commit together. */
export const deliveryRecorder = (
  eventStore: EventStore,
  clock: Clock,
  { breachesFromLog, onBreachRecorded }: DeliveryRecorderOptions,
): Projection => ({
  name: DELIVERY_RECORDER_NAME,
  tables: [],
  apply: async (trx, events) => {
    for (const event of events) {
      if (isSubscriptionEvent(event)) await recordSubscriptionEvent(trx, decodeEvent(event), event.position);
      else if (breachesFromLog && isBreach(event)) {
        await recordBreach(trx, event, eventStore, clock.now());
        onBreachRecorded?.();
      }
    }
  },
});
