import { handleCommand, newWebhookSecret, storeWebhookSecret } from '@cropcover/application';
import {
  CreatedWebhookSubscription,
  isPrivateHost,
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
    422: {
      description: 'The URL names a host only an internal network reaches (also refused at connect time)',
      codes: ['webhook_url_not_public'],
    },
  },
}).handle(
  async ({ deps, body: { url, description }, organizationId, refuse, req, res }) => {
    // Before anything is stored. The dispatcher checks the resolved address again when it connects.
    if (!deps.webhookAllowInsecure && isPrivateHost(new URL(url).hostname))
      throw refuse(
        'webhook_url_not_public',
        'The URL must not name localhost, an internal-only name or a private, loopback or link-local address.',
      );
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
  // WEBHOOK_ALLOW_INSECURE (development, tests) also accepts http (and, above, private hosts).
  { acceptedRequest: (deps) => ({ body: webhookCreateRequest(deps.webhookAllowInsecure) }) },
);
