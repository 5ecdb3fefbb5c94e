import { handleCommand, newWebhookSecret, storeWebhookSecret } from '@cropcover/application';
import { webhookCreateRequest } from '@cropcover/contracts';
import {
  createWebhookSubscription,
  ownedWebhookSubscription,
  webhookAggregate,
  webhookStream,
} from '@cropcover/domain';
import { parseBody } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { CommandApiDeps } from '../../../command-api-deps';
import { commandContextOf } from '../../../command-context';
import { awaitReadModels } from '../../../read-your-writes';
import { requireInsurer } from '../../insurer';
import { webhookResponse } from '../webhook-response';

/** POST /insurance/webhooks/trigger-events — endpoint 6: subscribes a receiver to `trigger.breached`; the
 *  only response that ever shows the signing secret. */
export const createWebhookSubscriptionRoute = (deps: CommandApiDeps): RequestHandler => {
  const schema = webhookCreateRequest(deps.webhookAllowInsecure);
  return async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    const organizationId = requireInsurer(context.principal);
    const { url, description } = parseBody(schema, req);
    const webhookId = uuidv7();
    const rawSecret = newWebhookSecret();
    await storeWebhookSecret(deps.db, webhookId, rawSecret, context.now);
    const outcome = await handleCommand(
      deps.eventStore,
      webhookStream(webhookId),
      webhookAggregate,
      (state) =>
        createWebhookSubscription(
          { webhookId, organizationId, url, description: description ?? null, now: context.now },
          state,
        ),
      context,
    );
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    res
      .status(201)
      .location(`/insurance/webhooks/${webhookId}`)
      .json({ ...webhookResponse(ownedWebhookSubscription(outcome.state, context.actor)), raw_secret: rawSecret });
  };
};
