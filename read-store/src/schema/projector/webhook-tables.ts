import type { Timestamp } from '../../columns';

/** Subscriptions as the query API lists them (a projection of `webhook-<id>`). */
export interface WebhooksTable {
  webhook_id: string;
  organization_id: string;
  event_type: string;
  url: string;
  description: string | null;
  is_active: boolean;
  created_at: Timestamp;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
}
