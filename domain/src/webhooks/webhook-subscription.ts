import type { WebhookSubscriptionEvent } from '@cropcover/contracts';
import { type Actor, canActForOrganization } from '../actor';
import { type Aggregate, streamName } from '../aggregate';
import { DomainError } from '../domain-error';

export type WebhookSubscription =
  | { readonly status: 'unregistered' }
  | {
      readonly status: 'registered';
      readonly webhookId: string;
      readonly organizationId: string;
      readonly url: string;
      readonly description: string | null;
      readonly isActive: boolean;
      readonly createdAt: string;
    };

export type RegisteredWebhookSubscription = Extract<WebhookSubscription, { status: 'registered' }>;

export const initialWebhookSubscription: WebhookSubscription = { status: 'unregistered' };

export const evolveWebhookSubscription = (
  state: WebhookSubscription,
  event: WebhookSubscriptionEvent,
): WebhookSubscription => {
  switch (event.type) {
    case 'WebhookSubscriptionCreated': {
      const { webhook_id, organization_id, url, description, created_at } = event.data;
      return {
        status: 'registered',
        webhookId: webhook_id,
        organizationId: organization_id,
        url,
        description,
        isActive: true,
        createdAt: created_at,
      };
    }
    case 'WebhookSubscriptionDeactivated':
      return state.status === 'registered' ? { ...state, isActive: false } : state;
  }
};

/** The subscription when the actor's organization owns it (admins: any); 404 otherwise, so another
 *  organization cannot learn which webhook ids exist. */
export const ownedWebhookSubscription = (state: WebhookSubscription, actor: Actor): RegisteredWebhookSubscription => {
  if (state.status === 'registered' && canActForOrganization(actor, state.organizationId)) return state;
  throw new DomainError('not_found', 'not_found', 'No such webhook subscription is visible to you.');
};

/** `webhook-<webhook_id>`: one subscription, from creation to deactivation. */
export const webhookStream = streamName('webhook');

export const webhookAggregate: Aggregate<WebhookSubscription, WebhookSubscriptionEvent> = {
  initial: initialWebhookSubscription,
  evolve: evolveWebhookSubscription,
};
