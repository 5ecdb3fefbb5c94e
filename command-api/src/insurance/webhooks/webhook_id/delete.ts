import { handleCommand } from '@cropcover/application';
import { NoBody, WebhookPathParams } from '@cropcover/contracts';
import { deactivateWebhookSubscription, webhookAggregate, webhookStream } from '@cropcover/domain';
import { parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../../command-api-deps';
import { commandContextOf } from '../../../command-context';
import { awaitReadModels } from '../../../read-your-writes';
import { requireInsurer } from '../../insurer';

/** DELETE /insurance/webhooks/{webhook_id} — deactivates the subscription: no delivery is sent to it
 *  any more, pending ones are abandoned. Its history stays readable. 204, also when already inactive. */
export const deactivateWebhookSubscriptionRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    requireInsurer(context.principal);
    const { webhook_id } = parseParams(WebhookPathParams, req);
    parseBody(NoBody, req);
    const outcome = await handleCommand(
      deps.eventStore,
      webhookStream(webhook_id),
      webhookAggregate,
      (state) =>
        deactivateWebhookSubscription({ actor: context.actor, reason: 'unsubscribed', now: context.now }, state),
      context,
    );
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    res.status(204).end();
  };
