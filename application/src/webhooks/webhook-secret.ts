import { randomBytes } from 'node:crypto';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The key bytes an HMAC is made with: the base64 after the prefix, as `standardwebhooks` reads it. */
export const webhookSigningKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/** Kept in its own table, not in the event: the log is forever and replayed by auditors, a secret must
 *  stay out of it and remain erasable. Written before the subscription's event, so no active
 *  subscription is ever without its secret (a failed append leaves an unused row, harmless). */
export const storeWebhookSecret = async (
  db: Kysely<ReadModels>,
  webhookId: string,
  secret: string,
  now: Date,
): Promise<void> => {
  await db.insertInto('webhook_secrets').values({ webhook_id: webhookId, secret, created_at: now }).execute();
};
