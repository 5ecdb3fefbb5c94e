import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '../zod';
import { TriggerBreachedDelivery } from './delivery';

/** What CropCover sends to a subscription's URL, in the OpenAPI document's `webhooks` (OpenAPI 3.1;
 *  Standard Webhooks signing). */
export const registerTriggerBreachedWebhook = (registry: OpenAPIRegistry): void => {
  registry.register('TriggerBreachedDelivery', TriggerBreachedDelivery);
  registry.registerWebhook({
    method: 'post',
    path: 'trigger.breached',
    operationId: 'triggerBreached',
    tags: ['Webhooks'],
    summary: 'A trigger breached on a policy of your organization, with its payout if any',
    request: {
      headers: z.object({
        'webhook-id': z.string().openapi({ description: 'The event id: the same on every retry; dedupe on it.' }),
        'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed.' }),
        'webhook-signature': z
          .string()
          .openapi({ description: 'v1,<base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>' }),
      }),
      body: { content: { 'application/json': { schema: TriggerBreachedDelivery } }, required: true },
    },
    responses: {
      200: { description: 'Any 2xx: delivered' },
      410: { description: 'The subscription is deactivated; nothing more is sent to it' },
    },
  });
};
