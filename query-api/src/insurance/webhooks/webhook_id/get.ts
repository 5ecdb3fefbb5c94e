import { actorOf } from '@cropcover/application';
import { WebhookPathParams } from '@cropcover/contracts';
import { parseParams, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../query-api-deps';
import { readVisibleWebhook, requireWebhookReader } from '../visible-webhook';
import { webhookSubscriptionOf } from '../webhook-view';

/** GET /insurance/webhooks/{webhook_id} — one subscription of the caller's organization (the Location of
 *  its creation), active or not; 404 for any other. */
export const getWebhook =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const principal = principalOf(req);
    requireWebhookReader(principal);
    const { webhook_id } = parseParams(WebhookPathParams, req);
    res.json(webhookSubscriptionOf(await readVisibleWebhook(deps.db, webhook_id, actorOf(principal))));
  };
