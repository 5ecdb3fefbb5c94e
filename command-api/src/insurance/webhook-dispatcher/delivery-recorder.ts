import { PolicyEvent, TriggerBreached, WebhookSubscriptionEvent } from '@cropcover/contracts';
import { triggerBreachedDelivery } from '@cropcover/domain';
import type { EventStore, RecordedEvent } from '@cropcover/eventstore';
import type { Projection, ReadModels } from '@cropcover/projector';
import type { Clock } from '@cropcover/runtime';
import type { Transaction } from 'kysely';
import { policyStream } from '../policy-stream';

/** The dispatcher's checkpoint name. Not one of the read-model projections: a rebuild must never
 *  record past breaches again, or every subscriber would be sent them a second time. */
export const DELIVERY_RECORDER_NAME = 'webhook-dispatcher';

/** The organization that owns the policy, from its first event. The log, not a read model: the policies
 *  projection may lag behind this subscription. */
const policyOrganization = async (eventStore: EventStore, policyId: string): Promise<string> => {
  const [first] = await eventStore.readStream(policyStream(policyId), { limit: 1 });
  const issued = PolicyEvent.parse({ type: first?.type, data: first?.data });
  if (issued.type !== 'PolicyIssued') throw new Error(`policy ${policyId} does not start with PolicyIssued`);
  return issued.data.organization_id;
};

const recordSubscriptionEvent = async (trx: Transaction<ReadModels>, recorded: RecordedEvent): Promise<void> => {
  const event = WebhookSubscriptionEvent.parse({ type: recorded.type, data: recorded.data });
  if (event.type === 'WebhookSubscriptionCreated') {
    const { webhook_id, organization_id, url } = event.data;
    await trx
      .insertInto('webhook_targets')
      .values({ webhook_id, organization_id, url, is_active: true })
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
  recorded: RecordedEvent,
  eventStore: EventStore,
  now: Date,
): Promise<void> => {
  const breach = TriggerBreached.parse(recorded.data);
  const organizationId = await policyOrganization(eventStore, breach.policy_id);
  const targets = await trx
    .selectFrom('webhook_targets')
    .select('webhook_id')
    .where('organization_id', '=', organizationId)
    .where('is_active', '=', true)
    .execute();
  if (targets.length === 0) return;
  const payload = JSON.stringify(triggerBreachedDelivery(recorded.metadata.event_id, organizationId, breach));
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map(({ webhook_id }) => ({
        event_id: recorded.metadata.event_id,
        webhook_id,
        policy_id: breach.policy_id,
        payload,
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    // A batch applied again after a crash records nothing twice.
    .onConflict((conflict) => conflict.columns(['event_id', 'webhook_id']).doNothing())
    .execute();
};

/** Follows the log: each TriggerBreached becomes one pending delivery per subscription of the policy's
 *  organization active at that point of the log; subscription events keep the targets in step. Runs as a
 *  projection, so deliveries and checkpoint commit together. */
export const deliveryRecorder = (eventStore: EventStore, clock: Clock): Projection => ({
  name: DELIVERY_RECORDER_NAME,
  tables: [],
  apply: async (trx, events) => {
    for (const event of events) {
      if (event.type === 'WebhookSubscriptionCreated' || event.type === 'WebhookSubscriptionDeactivated')
        await recordSubscriptionEvent(trx, event);
      else if (event.type === 'TriggerBreached') await recordBreach(trx, event, eventStore, clock.now());
    }
  },
});
