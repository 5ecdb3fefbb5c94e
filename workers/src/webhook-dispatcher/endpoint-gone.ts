import { type CommandContext, handleCommand } from '@cropcover/application';
import { deactivateWebhookSubscription, webhookAggregate, webhookStream } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { v7 as uuidv7 } from 'uuid';

/** The subject the dispatcher's events carry as `actor`. */
export const DISPATCHER_SUBJECT = 'system:webhook-dispatcher';

/** The dispatcher acts for the subscription's own organization, with no roles: it can touch no other tenant. */
const dispatcherContext = (organizationId: string, now: Date): CommandContext => {
  const id = uuidv7();
  return {
    principal: { sub: DISPATCHER_SUBJECT, organizationId, roles: [] },
    actor: { subject: DISPATCHER_SUBJECT, organizationId, isAdmin: false, roles: [] },
    requestId: id,
    correlationId: id,
    now,
  };
};

/** A receiver answered 410 Gone: it asks never to be called again, so the subscription is deactivated. */
export const deactivateGoneEndpoint = async (
  eventStore: EventStore,
  webhookId: string,
  organizationId: string,
  now: Date,
): Promise<void> => {
  const context = dispatcherContext(organizationId, now);
  await handleCommand(
    eventStore,
    webhookStream(webhookId),
    webhookAggregate,
    (state) => deactivateWebhookSubscription({ actor: context.actor, reason: 'endpoint_gone', now }, state),
    context,
  );
};
