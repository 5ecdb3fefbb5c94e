import { TRIGGER_BREACHED_EVENT_TYPE, type WebhookSubscription as WebhookSubscriptionView } from '@cropcover/contracts';
import type { RegisteredWebhookSubscription } from '@cropcover/domain';

/** A subscription as endpoint 6 and the list show it; the secret is added only on creation. */
export const webhookResponse = (subscription: RegisteredWebhookSubscription): WebhookSubscriptionView => ({
  webhook_id: subscription.webhookId,
  organization_id: subscription.organizationId,
  event_type: TRIGGER_BREACHED_EVENT_TYPE,
  url: subscription.url,
  description: subscription.description,
  is_active: subscription.isActive,
  created_at: subscription.createdAt,
});
