import { type Actor, canActForOrganization } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** Webhooks are the insurer's (SPEC §4), always for an organization. */
export const WEBHOOK_READERS = ['insurer'] as const;

/** The subscription's row when the actor may act for its organization; 404 otherwise, never 403, so
 *  another organization cannot learn which webhook ids exist. */
export const readVisibleWebhook = async (db: Kysely<ReadModels>, webhookId: string, actor: Actor) => {
  const row = await db.selectFrom('webhooks').selectAll().where('webhook_id', '=', webhookId).executeTakeFirst();
  if (!row || !canActForOrganization(actor, row.organization_id))
    throw ProblemError.notFound(`No webhook subscription ${webhookId} is visible to you.`);
  return row;
};
