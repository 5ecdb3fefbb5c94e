import { type WebhookList, WebhookListQuery } from '@cropcover/contracts';
import { parseQuery, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../query-api-deps';
import { requireWebhookReader } from './visible-webhook';
import { webhookSubscriptionOf } from './webhook-view';

/** GET /insurance/webhooks — the caller's organization's subscriptions, newest first, inactive ones
 *  included (a 410 may have deactivated one); never the secret. */
export const listWebhooks =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const organizationId = requireWebhookReader(principalOf(req));
    const { page, page_size } = parseQuery(WebhookListQuery, req);
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
    const list: WebhookList = { items: rows.map(webhookSubscriptionOf), total: Number(total), page, page_size };
    res.json(list);
  };
