import { handleCommand } from '@cropcover/application';
import { UNKNOWN_WEBHOOK, WebhookPathParams } from '@cropcover/contracts';
import { deactivateWebhookSubscription, webhookAggregate, webhookStream } from '@cropcover/domain';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { awaitReadModels } from '../../../read-your-writes';

/** No delivery is sent to a deactivated subscription any more, pending ones are abandoned; its history stays
 *  readable. 204 also when it was already inactive. */
export const deactivateWebhookSubscriptionRoute = commandRoute('DELETE /insurance/webhooks/{webhook_id}', {
  summary: 'Deactivate a subscription; pending deliveries are abandoned',
  roles: ['insurer'],
  request: { params: WebhookPathParams },
  success: { status: 204, description: 'Deactivated' },
  problems: {
    404: UNKNOWN_WEBHOOK,
    409: KEPT_CHANGING,
  },
}).handle(async ({ deps, params: { webhook_id }, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    webhookStream(webhook_id),
    webhookAggregate,
    (state) => deactivateWebhookSubscription({ actor: context.actor, reason: 'unsubscribed', now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  return undefined;
});
