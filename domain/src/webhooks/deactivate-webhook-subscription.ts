import type { WebhookDeactivationReason, WebhookSubscriptionEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { ownedWebhookSubscription, type WebhookSubscription } from './webhook-subscription';

export interface DeactivateWebhookSubscription {
  readonly actor: Actor;
  readonly reason: WebhookDeactivationReason;
  readonly now: Date;
}

/** Stops deliveries for good. Deactivating an inactive subscription records nothing, so a repeated
 *  DELETE (or a second 410) is harmless. */
export const deactivateWebhookSubscription = (
  command: DeactivateWebhookSubscription,
  state: WebhookSubscription,
): WebhookSubscriptionEvent[] => {
  const subscription = ownedWebhookSubscription(state, command.actor);
  if (!subscription.isActive) return [];
  return [
    {
      type: 'WebhookSubscriptionDeactivated',
      data: {
        webhook_id: subscription.webhookId,
        reason: command.reason,
        deactivated_at: command.now.toISOString(),
      },
    },
  ];
};
