import type { WebhookSubscription } from '@cropcover/contracts';
import type { ReadModels } from '@cropcover/read-store';
import type { Selectable } from 'kysely';
import { isoTimestamp } from '../../timestamps';

/** A subscription as its organization reads it: never the secret. */
export const webhookSubscriptionOf = (row: Selectable<ReadModels['webhooks']>): WebhookSubscription => ({
  webhook_id: row.webhook_id,
  organization_id: row.organization_id,
  event_type: 'trigger.breached',
  url: row.url,
  description: row.description,
  is_active: row.is_active,
  created_at: isoTimestamp(row.created_at),
});
