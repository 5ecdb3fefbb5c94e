import { handleCommand, newWebhookSecret, storeWebhookSecret } from '@cropcover/application';
import {
  CreatedWebhookSubscription,
  WEBHOOK_DELIVERY_RULES,
  WebhookCreateRequest,
  webhookCreateRequest,
} from '@cropcover/contracts';
import {
  createWebhookSubscription,
  ownedWebhookSubscription,
  webhookAggregate,
  webhookStream,
} from '@cropcover/domain';
import { v7 as uuidv7 } from 'uuid';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { awaitReadModels } from '../../../read-your-writes';
import { webhookResponse } from '../webhook-response';

/** Endpoint 6: subscribes a receiver to `trigger.breached`; the only response that ever shows the signing
 *  secret. */
export const createWebhookSubscriptionRoute = commandRoute('POST /insurance/webhooks/trigger-events', {
  summary: 'Subscribe a receiver to trigger.breached (endpoint 6); the signing secret is shown only here',
  description: WEBHOOK_DELIVERY_RULES,
  roles: ['insurer'],
  request: { body: WebhookCreateRequest },
  success: { status: 201, schema: CreatedWebhookSubscription, description: 'Subscribed' },
  problems: {
    409: { description: 'A new subscription kept colliding', codes: ['webhook_exists', ...KEPT_CHANGING.codes] },
  },
}).handle(
  async ({ deps, body: { url, description }, organizationId, req, res }) => {
    const context = commandContextOf(req, deps.clock.now());
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
    res.location(`/insurance/webhooks/${webhookId}`);
    return { ...webhookResponse(ownedWebhookSubscription(outcome.state, context.actor)), raw_secret: rawSecret };
  },
  // WEBHOOK_ALLOW_INSECURE (development, tests) also accepts http and private hosts.
  { acceptedRequest: (deps) => ({ body: webhookCreateRequest(deps.webhookAllowInsecure) }) },
);
