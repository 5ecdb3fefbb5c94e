import { WebhookList, WebhookListQuery } from '@cropcover/contracts';
import { queryRoute } from '../../query-route';
import { WEBHOOK_READERS } from './visible-webhook';
import { webhookSubscriptionOf } from './webhook-view';

/** The caller's organization's subscriptions, newest first, inactive ones
 *  included (a 410 may have deactivated one); never the secret. */
export const listWebhooks = queryRoute('GET /insurance/webhooks', {
  summary: "The organization's webhook subscriptions, newest first (never the secret)",
  roles: WEBHOOK_READERS,
  request: { query: WebhookListQuery },
  success: { status: 200, schema: WebhookList, description: 'A page of subscriptions' },
}).handle(async ({ deps, query: { page, page_size }, organizationId }) => {
  const scope = deps.db.selectFrom('webhooks').where('organization_id', '=', organizationId);
  const [rows, { total }] = await Promise.all([
    scope
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('webhook_id')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    scope.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(webhookSubscriptionOf), total: Number(total), page, page_size };
});
