import type { ReadModels } from '@cropcover/read-store';
import { ADMIN_ROLE, type Principal, ProblemError, requireOrganization, requireRoles } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** Webhooks are the insurer's (SPEC §4), always for an organization. */
export const requireWebhookReader = (principal: Principal): string => {
  requireRoles(principal, 'insurer');
  return requireOrganization(principal);
};

/** The subscription's row when the caller's organization owns it (admins: any); 404 otherwise, never
 *  403, so another organization cannot learn which webhook ids exist. */
export const visibleWebhook = async (db: Kysely<ReadModels>, webhookId: string, principal: Principal) => {
  const row = await db.selectFrom('webhooks').selectAll().where('webhook_id', '=', webhookId).executeTakeFirst();
  if (!row || !(principal.roles.includes(ADMIN_ROLE) || principal.organizationId === row.organization_id))
    throw ProblemError.notFound(`No webhook subscription ${webhookId} is visible to you.`);
  return row;
};
