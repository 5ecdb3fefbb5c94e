import { decodeEvent, isOneOf } from '@cropcover/application';
import type { WebhookSubscriptionEvent } from '@cropcover/contracts';
import type { Projection } from '../projection';

const HANDLED = new Set<WebhookSubscriptionEvent['type']>([
  'WebhookSubscriptionCreated',
  'WebhookSubscriptionDeactivated',
]);

/** Webhook subscriptions (`webhooks`) from the `webhook-<id>` streams; few and rarely written, so one
 *  statement per event. A replayed creation is ignored, a replayed deactivation changes nothing. */
export const webhooksProjection: Projection = {
  name: 'webhooks',
  tables: ['webhooks'],
  apply: async (trx, events) => {
    for (const event of events.filter(isOneOf(HANDLED)).map(decodeEvent)) {
      if (event.type === 'WebhookSubscriptionCreated') {
        await trx
          .insertInto('webhooks')
          .values({ ...event.data, is_active: true })
          .onConflict((conflict) => conflict.column('webhook_id').doNothing())
          .execute();
      } else {
        await trx
          .updateTable('webhooks')
          .set({ is_active: false })
          .where('webhook_id', '=', event.data.webhook_id)
          .execute();
      }
    }
  },
};
