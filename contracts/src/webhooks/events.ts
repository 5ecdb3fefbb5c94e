import { DateTime } from '../common';
import { z } from '../zod';

// Event payloads of webhook subscriptions (stream `webhook-<id>`). The signing secret is deliberately
// not here: the log is forever and every auditor may replay it, while a secret must stay erasable.

export const TRIGGER_BREACHED_EVENT_TYPE = 'trigger.breached';

export const WebhookSubscriptionCreated = z
  .object({
    webhook_id: z.string(),
    organization_id: z.string(),
    event_type: z.literal(TRIGGER_BREACHED_EVENT_TYPE),
    url: z.string(),
    description: z.string().nullable(),
    created_at: DateTime,
  })
  .openapi('WebhookSubscriptionCreated');
export type WebhookSubscriptionCreated = z.infer<typeof WebhookSubscriptionCreated>;

/** `unsubscribed`: its organization deleted it; `endpoint_gone`: the receiver answered 410 Gone. */
export const WebhookDeactivationReason = z.enum(['unsubscribed', 'endpoint_gone']);
export type WebhookDeactivationReason = z.infer<typeof WebhookDeactivationReason>;

export const WebhookSubscriptionDeactivated = z
  .object({ webhook_id: z.string(), reason: WebhookDeactivationReason, deactivated_at: DateTime })
  .openapi('WebhookSubscriptionDeactivated');
export type WebhookSubscriptionDeactivated = z.infer<typeof WebhookSubscriptionDeactivated>;

export const WebhookSubscriptionEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('WebhookSubscriptionCreated'), data: WebhookSubscriptionCreated }),
  z.object({ type: z.literal('WebhookSubscriptionDeactivated'), data: WebhookSubscriptionDeactivated }),
]);
export type WebhookSubscriptionEvent = z.infer<typeof WebhookSubscriptionEvent>;
