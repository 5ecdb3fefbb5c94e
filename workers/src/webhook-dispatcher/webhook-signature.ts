import { createHmac } from 'node:crypto';
import { webhookSigningKey } from '@cropcover/application';

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 over `{id}.{timestamp}.{body}` with the secret's bytes. */
export const webhookSignature = (secret: string, webhookId: string, timestampSeconds: number, body: string): string =>
  `v1,${createHmac('sha256', webhookSigningKey(secret)).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64')}`;
