import { TriggerBreachedDelivery, type WebhookSubscriptionEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../actor';
import { deciderSpec } from '../testing/decider-spec';
import { createWebhookSubscription } from './create-webhook-subscription';
import { deactivateWebhookSubscription } from './deactivate-webhook-subscription';
import { MAX_DELIVERY_ATTEMPTS, nextDeliveryAttemptAt } from './delivery-schedule';
import { triggerBreachedDelivery } from './trigger-breached-delivery';
import { evolveWebhookSubscription, initialWebhookSubscription } from './webhook-subscription';

const created = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');
const insurer: Actor = { subject: 'underwriter', organizationId: 'org-a', isAdmin: false };
const otherInsurer: Actor = { subject: 'rival', organizationId: 'org-b', isAdmin: false };
const admin: Actor = { subject: 'root', organizationId: 'org-z', isAdmin: true };

const subscriptionCreated: WebhookSubscriptionEvent = {
  type: 'WebhookSubscriptionCreated',
  data: {
    webhook_id: 'wh-1',
    organization_id: 'org-a',
    event_type: 'trigger.breached',
    url: 'https://hooks.example.com/cropcover',
    description: null,
    created_at: created.toISOString(),
  },
};
const unsubscribed: WebhookSubscriptionEvent = {
  type: 'WebhookSubscriptionDeactivated',
  data: { webhook_id: 'wh-1', reason: 'unsubscribed', deactivated_at: later.toISOString() },
};

describe('creating a webhook subscription', () => {
  const spec = deciderSpec(initialWebhookSubscription, evolveWebhookSubscription, createWebhookSubscription);
  const command = {
    webhookId: 'wh-1',
    organizationId: 'org-a',
    url: 'https://hooks.example.com/cropcover',
    description: null,
    now: created,
  };
  it('subscribes the organization to trigger.breached', () =>
    spec.given([]).when(command).thenEvents([subscriptionCreated]));
  it('refuses an id twice', () =>
    spec.given([subscriptionCreated]).when(command).thenRefuses('conflict', 'webhook_exists'));
});

describe('deactivating a webhook subscription', () => {
  const spec = deciderSpec(initialWebhookSubscription, evolveWebhookSubscription, deactivateWebhookSubscription);
  const by = (actor: Actor, reason: 'unsubscribed' | 'endpoint_gone' = 'unsubscribed') => ({
    actor,
    reason,
    now: later,
  });

  it('deactivates an active subscription of the caller’s organization', () =>
    spec.given([subscriptionCreated]).when(by(insurer)).thenEvents([unsubscribed]));
  it('records why: a receiver that answered 410 Gone', () =>
    spec
      .given([subscriptionCreated])
      .when(by(insurer, 'endpoint_gone'))
      .thenEvents([{ ...unsubscribed, data: { ...unsubscribed.data, reason: 'endpoint_gone' } }]));
  it('lets an admin deactivate any organization’s subscription', () =>
    spec.given([subscriptionCreated]).when(by(admin)).thenEvents([unsubscribed]));
  it('records nothing the second time', () =>
    spec.given([subscriptionCreated, unsubscribed]).when(by(insurer)).thenEvents([]));
  it('hides another organization’s subscription behind 404', () =>
    spec.given([subscriptionCreated]).when(by(otherInsurer)).thenRefuses('not_found', 'not_found'));
  it('refuses an unknown subscription', () => spec.given([]).when(by(insurer)).thenRefuses('not_found', 'not_found'));
});

describe('the delivery schedule', () => {
  const failedAt = new Date('2026-03-01T00:00:00.000Z');
  const delays = (scale: number) =>
    Array.from({ length: MAX_DELIVERY_ATTEMPTS }, (_, index) => {
      const next = nextDeliveryAttemptAt(index + 1, failedAt, scale);
      return next && next.getTime() - failedAt.getTime();
    });

  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up', () =>
    expect(delays(1)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, undefined]));
  it('scales the delays for tests', () =>
    expect(delays(0.001)).toEqual([5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, undefined]));
});

describe('the trigger.breached body', () => {
  const breach = {
    policy_id: 'p-1',
    evaluation_id: 'e-1',
    farm_id: 'farm-1',
    field_id: 'plot-1',
    peril: 'flood' as const,
    trigger_index: 'max_5day_rainfall_mm' as const,
    observed_value: 180,
    threshold: 150,
    severity: 0.2,
    as_of: '2026-03-10',
    breached_at: '2026-03-10T06:00:00.000Z',
  };

  it('shows the payout in major units, approved, with the policy’s organization', () => {
    const body = triggerBreachedDelivery('ev-1', 'org-a', {
      ...breach,
      payout: { payout_id: 'po-1', amount_minor: 200_050, currency: 'USD' },
    });
    expect(TriggerBreachedDelivery.parse(body)).toEqual(body);
    expect(body).toEqual({
      type: 'trigger.breached',
      timestamp: '2026-03-10T06:00:00.000Z',
      data: {
        event_id: 'ev-1',
        organization_id: 'org-a',
        ...breach,
        breached_at: undefined,
        payout: { payout_id: 'po-1', amount: 2000.5, currency: 'USD', status: 'approved' },
      },
    });
  });

  it('carries a null payout when the breach pays nothing more', () =>
    expect(triggerBreachedDelivery('ev-1', 'org-a', { ...breach, payout: null }).data.payout).toBeNull());
});
