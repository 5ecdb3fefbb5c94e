import { actorOf } from '@cropcover/application';
import { UNKNOWN_WEBHOOK, WebhookPathParams, WebhookSubscription } from '@cropcover/contracts';
import { queryRoute } from '../../../query-route';
import { readVisibleWebhook, WEBHOOK_READERS } from '../visible-webhook';
import { webhookSubscriptionOf } from '../webhook-view';

/** One subscription of the caller's organization (the Location of its creation), active or not; 404 for
 *  any other. */
export const getWebhook = queryRoute('GET /insurance/webhooks/{webhook_id}', {
  summary: 'One subscription of the caller organization, active or not (never the secret)',
  roles: WEBHOOK_READERS,
  request: { params: WebhookPathParams },
  success: { status: 200, schema: WebhookSubscription, description: 'The subscription' },
  problems: { 404: UNKNOWN_WEBHOOK },
}).handle(async ({ deps, params: { webhook_id }, principal }) =>
  webhookSubscriptionOf(await readVisibleWebhook(deps.db, webhook_id, actorOf(principal))),
);
