import { TRIGGER_BREACHED_EVENT_TYPE, type WebhookSubscriptionEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { WebhookSubscription } from './webhook-subscription';

export interface CreateWebhookSubscription {
  readonly webhookId: string;
  readonly organizationId: string;
  readonly url: string;
  readonly description: string | null;
  readonly now: Date;
}

/** Subscribes an organization's receiver to `trigger.breached`, the one event kind there is (seed §6). */
export const createWebhookSubscription = (
  command: CreateWebhookSubscription,
  state: WebhookSubscription,
): WebhookSubscriptionEvent[] => {
  if (state.status !== 'unregistered')
    throw new DomainError('conflict', 'webhook_exists', `Webhook subscription ${command.webhookId} exists.`);
  return [
    {
      type: 'WebhookSubscriptionCreated',
      data: {
        webhook_id: command.webhookId,
        organization_id: command.organizationId,
        event_type: TRIGGER_BREACHED_EVENT_TYPE,
        url: command.url,
        description: command.description,
        created_at: command.now.toISOString(),
      },
    },
  ];
};
