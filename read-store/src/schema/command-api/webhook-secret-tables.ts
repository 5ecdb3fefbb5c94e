import type { Timestamp } from '../../columns';

/** The signing secret (`whsec_…`), written by the command API when the subscription is created. */
export interface WebhookSecretsTable {
  webhook_id: string;
  secret: string;
  created_at: Timestamp;
}

export interface WebhookSecretTables {
  webhook_secrets: WebhookSecretsTable;
}
