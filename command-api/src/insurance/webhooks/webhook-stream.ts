import type { WebhookSubscriptionEvent } from '@cropcover/contracts';
import { evolveWebhookSubscription, initialWebhookSubscription, type WebhookSubscription } from '@cropcover/domain';
import type { Aggregate } from '../../handle-command';

export const webhookStream = (webhookId: string): string => `webhook-${webhookId}`;

export const webhookAggregate: Aggregate<WebhookSubscription, WebhookSubscriptionEvent> = {
  initial: initialWebhookSubscription,
  evolve: evolveWebhookSubscription,
};
