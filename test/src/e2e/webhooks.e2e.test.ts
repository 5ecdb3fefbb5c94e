import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from '../support/api-client';
import {
  breachablePolicy,
  dataProviderOf,
  evaluate,
  newInsurer,
  subscribe,
  verified,
} from '../support/breachable-policy';
import { today } from '../support/calendar';
import { expectProblem } from '../support/problem-assertions';
import { type RunningService, startService } from '../support/service-process';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

// trigger.breached webhooks over real HTTP: the all-in-one service on real PostgreSQL, with the dispatcher
// in-process reading breaches from the event store, and a real receiver on 127.0.0.1 (hence
// WEBHOOK_ALLOW_INSECURE). Retries are scaled down 1000× (5 s → 5 ms).

const SERVICE_ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_SCALE: '0.001', MONITOR_ENABLED: 'false' };
const WEBHOOK_KEYS = ['created_at', 'description', 'event_type', 'is_active', 'organization_id', 'url', 'webhook_id'];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('trigger.breached webhooks', () => {
  let database: TestDatabase;
  let service: RunningService;
  let api: ApiClient;
  let client: pg.Client;
  let receiver: WebhookReceiver;

  const count = async (table: string): Promise<number> =>
    Number((await client.query<{ count: string }>(`select count(*) from ${table}`)).rows[0]!.count);

  beforeAll(async () => {
    database = await createTestDatabase('e2e_webhooks');
    service = await startService({ DATABASE_URL: database.url, ...SERVICE_ENV });
    api = apiClient(service.baseUrl);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    receiver = await startWebhookReceiver();
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await client?.end();
    await service?.stop();
    await database?.drop();
  });

  it('subscribes with a secret shown once, never listed', async () => {
    const insurer = newInsurer();
    const response = await api.post('/insurance/webhooks/trigger-events', insurer, {
      url: receiver.url('/listed'),
      description: 'claims desk',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/insurance/webhooks/${response.body.webhook_id}`);
    expect(Object.keys(response.body).sort()).toEqual([...WEBHOOK_KEYS, 'raw_secret'].sort());
    expect(response.body).toMatchObject({
      organization_id: insurer.org,
      event_type: 'trigger.breached',
      url: receiver.url('/listed'),
      description: 'claims desk',
      is_active: true,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const secret: string = response.body.raw_secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);

    const list = await api.get('/insurance/webhooks', insurer);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(Object.keys(list.body.items[0]).sort()).toEqual(WEBHOOK_KEYS);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
    expect((await api.get('/insurance/webhooks', newInsurer())).body).toMatchObject({ items: [], total: 0 });
    // The creation's Location answers, to its organization only (issue 13, item 4).
    const located = await api.get(response.headers.get('location')!, insurer);
    expect(located.status).toBe(200);
    expect(located.body).toEqual(list.body.items[0]);
    expectProblem(await api.get(response.headers.get('location')!, newInsurer()), 404, 'not_found');
    // What the log stores, the event's texts, holds the subscription and not its secret.
    const events = await client.query('select stored_data, stored_metadata from events where stream_id = $1', [
      `webhook-${response.body.webhook_id}`,
    ]);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].stored_data).toContain(`"url":"${receiver.url('/listed')}"`);
    expect(JSON.stringify(events.rows)).not.toContain(secret.slice(6));
  });

  it('refuses bad bodies with 400 and creates nothing', async () => {
    const insurer = newInsurer();
    const before = { events: await count('events'), secrets: await count('webhook_secrets') };
    for (const [body, path] of [
      [{}, 'url'],
      [{ description: 'no url' }, 'url'],
      [{ url: receiver.url('/x'), secret: 'mine' }, 'secret'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://hooks.example.com/x' }, 'url'],
      [{ url: 'https://user:pw@hooks.example.com/x' }, 'url'],
      [{ url: 42 }, 'url'],
      [{ url: receiver.url('/x'), description: '' }, 'description'],
    ] as const) {
      const response = await api.post('/insurance/webhooks/trigger-events', insurer, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_failed' });
      expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    const notInsurer = await api.post('/insurance/webhooks/trigger-events', dataProviderOf(insurer), {
      url: receiver.url('/x'),
    });
    expect(notInsurer.status).toBe(403);
    const noOrg = await api.post(
      '/insurance/webhooks/trigger-events',
      { sub: 'u', roles: ['insurer'] },
      {
        url: receiver.url('/x'),
      },
    );
    expect(noOrg.status).toBe(403);
    expect({ events: await count('events'), secrets: await count('webhook_secrets') }).toEqual(before);
    expect((await api.get('/insurance/webhooks', insurer)).body.total).toBe(0);
  });

  it('delivers a signed breach to the policy’s organization only, and an unchanged breach sends nothing new', async () => {
    const insurer = newInsurer();
    const rival = newInsurer();
    const ours = await subscribe(api, insurer, receiver.url('/ours'));
    await subscribe(api, rival, receiver.url('/rival'));
    const policy = await breachablePolicy(api, insurer);
    await evaluate(api, insurer, policy.policy_id);

    const [request] = await eventually(() => receiver.received('/ours').length > 0 && receiver.received('/ours'));
    const payload = verified(ours.raw_secret, request!);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(payload).toEqual({
      type: 'trigger.breached',
      timestamp: expect.any(String),
      data: {
        event_id: request!.headers['webhook-id'],
        policy_id: policy.policy_id,
        organization_id: insurer.org,
        farm_id: policy.farm_id,
        field_id: policy.field_id,
        peril: 'flood',
        trigger_index: 'max_5day_rainfall_mm',
        observed_value: 180,
        threshold: 150,
        severity: 0.2,
        as_of: today(),
        evaluation_id: expect.any(String),
        payout: { payout_id: expect.any(String), amount: 2000, currency: 'USD', status: 'approved' },
        audit: {
          leaf_index: expect.any(Number),
          tree_size: expect.any(Number),
          hashes: expect.any(Array),
          checkpoint: expect.any(Object),
        },
      },
    });
    const breach = await client.query<{ event_id: string }>(
      `select metadata->>'event_id' as event_id from events_json where stream_id = $1 and event_type = 'TriggerBreached'`,
      [`policy-${policy.policy_id}`],
    );
    expect(breach.rows.map((row) => row.event_id)).toEqual([request!.headers['webhook-id']]);
    // Sent only once a signed checkpoint covered the breach: its leaf and that checkpoint, as the audit API shows them.
    const { audit } = payload.data;
    expect(audit.leaf_index).toBeLessThan(audit.tree_size);
    const signed = await api.get(`/audit/checkpoints/${audit.tree_size}`, insurer);
    expect(signed.body).toEqual(audit.checkpoint);
    const events = await api.get(`/insurance/policies/${policy.policy_id}/events?proofs=true&page_size=100`, insurer);
    const breachEvent = events.body.items.find(
      (item: any) => item.metadata.event_id === request!.headers['webhook-id'],
    );
    expect(breachEvent.leaf_index).toBe(audit.leaf_index);
    expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, request!)).toThrow();

    const deliveries = await eventually(async () => {
      const response = await api.get(`/insurance/webhooks/${ours.webhook_id}/deliveries`, insurer);
      return response.body.items?.[0]?.status === 'delivered' && response.body;
    });
    expect(deliveries).toMatchObject({
      webhook_id: ours.webhook_id,
      total: 1,
      items: [
        {
          event_id: request!.headers['webhook-id'],
          event_type: 'trigger.breached',
          policy_id: policy.policy_id,
          attempt_count: 1,
          next_attempt_at: null,
          attempts: [{ attempt: 1, status_code: 200, latency_ms: expect.any(Number), error: null }],
        },
      ],
    });
    const hidden = await api.get(`/insurance/webhooks/${ours.webhook_id}/deliveries`, rival);
    expect(hidden.status).toBe(404);

    const again = await evaluate(api, insurer, policy.policy_id);
    expect(again.payout_count).toBe(0);
    await pause(1500);
    expect(receiver.received('/ours')).toHaveLength(1);
    expect(receiver.received('/rival')).toHaveLength(0);
  });

  it('retries a 500 with the same webhook-id until it is delivered', async () => {
    const insurer = newInsurer();
    receiver.script('/flaky', [{ status: 500 }, { status: 503 }]);
    const subscription = await subscribe(api, insurer, receiver.url('/flaky'));
    const policy = await breachablePolicy(api, insurer);
    await evaluate(api, insurer, policy.policy_id);

    const requests = await eventually(() => receiver.received('/flaky').length >= 3 && receiver.received('/flaky'));
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    for (const request of requests)
      expect(verified(subscription.raw_secret, request).data.policy_id).toBe(policy.policy_id);
    const deliveries = await eventually(async () => {
      const response = await api.get(`/insurance/webhooks/${subscription.webhook_id}/deliveries`, insurer);
      return response.body.items?.[0]?.status === 'delivered' && response.body;
    });
    expect(deliveries.items[0]).toMatchObject({
      attempt_count: 3,
      attempts: [
        { attempt: 1, status_code: 500, error: 'receiver answered 500' },
        { attempt: 2, status_code: 503, error: 'receiver answered 503' },
        { attempt: 3, status_code: 200, error: null },
      ],
    });
  });

  it('deactivates the subscription when the receiver answers 410, and sends it nothing more', async () => {
    const insurer = newInsurer();
    receiver.script('/gone', [{ status: 410 }]);
    const subscription = await subscribe(api, insurer, receiver.url('/gone'));
    await evaluate(api, insurer, (await breachablePolicy(api, insurer)).policy_id);

    await eventually(async () => {
      const list = await api.get('/insurance/webhooks', insurer);
      return list.body.items[0]?.is_active === false;
    });
    const events = await client.query<{ data: any; actor: string }>(
      `select data, metadata->>'actor' as actor from events_json where stream_id = $1 order by stream_revision`,
      [`webhook-${subscription.webhook_id}`],
    );
    expect(events.rows[1]).toMatchObject({ data: { reason: 'endpoint_gone' }, actor: 'system:webhook-dispatcher' });
    const deliveries = await api.get(`/insurance/webhooks/${subscription.webhook_id}/deliveries`, insurer);
    expect(deliveries.body.items[0]).toMatchObject({ status: 'failed', attempts: [{ status_code: 410 }] });

    await evaluate(api, insurer, (await breachablePolicy(api, insurer)).policy_id);
    await pause(1500);
    expect(receiver.received('/gone')).toHaveLength(1);
  });

  it('deletes a subscription: 204, inactive in the list, no more deliveries; another organization gets 404', async () => {
    const insurer = newInsurer();
    const subscription = await subscribe(api, insurer, receiver.url('/deleted'));
    const stranger = await api.delete(`/insurance/webhooks/${subscription.webhook_id}`, newInsurer());
    expect(stranger.status).toBe(404);
    expect((await api.get('/insurance/webhooks', insurer)).body.items[0].is_active).toBe(true);

    const deleted = await api.delete(`/insurance/webhooks/${subscription.webhook_id}`, insurer);
    expect(deleted.status).toBe(204);
    expect((await api.get('/insurance/webhooks', insurer)).body.items[0].is_active).toBe(false);
    expect((await api.delete(`/insurance/webhooks/${subscription.webhook_id}`, insurer)).status).toBe(204);
    expect((await api.delete('/insurance/webhooks/no-such-webhook', insurer)).status).toBe(404);

    await evaluate(api, insurer, (await breachablePolicy(api, insurer)).policy_id);
    await pause(1500);
    expect(receiver.received('/deleted')).toHaveLength(0);
  });
});

describe('webhook delivery across a restart', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let service: RunningService | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('e2e_webhooks_restart');
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('delivers a breach whose first attempt was cut short by a stop (at least once)', async () => {
    service = await startService({ DATABASE_URL: database.url, ...SERVICE_ENV });
    let api = apiClient(service.baseUrl);
    const insurer = newInsurer();
    // The receiver sits on the first request long enough for the service to be stopped under it.
    receiver.script('/slow', [{ status: 200, delayMs: 10_000 }]);
    const subscription = await subscribe(api, insurer, receiver.url('/slow'));
    await evaluate(api, insurer, (await breachablePolicy(api, insurer)).policy_id);
    await eventually(() => receiver.received('/slow').length === 1);
    const stopping = Date.now();
    await service.stop();
    // Stopped while the receiver still held the request: the attempt was cut short, not waited for.
    expect(Date.now() - stopping).toBeLessThan(8_000);

    service = await startService({ DATABASE_URL: database.url, ...SERVICE_ENV });
    api = apiClient(service.baseUrl);
    const requests = await eventually(() => receiver.received('/slow').length >= 2 && receiver.received('/slow'));
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) verified(subscription.raw_secret, request);
    const deliveries = await eventually(async () => {
      const response = await api.get(`/insurance/webhooks/${subscription.webhook_id}/deliveries`, insurer);
      return response.body.items?.[0]?.status === 'delivered' && response.body;
    });
    expect(deliveries).toMatchObject({ total: 1, items: [{ attempts: [{ attempt: 1, status_code: 200 }] }] });
  }, 120_000);

  it('delivers a breach whose dispatcher was killed mid-delivery (SIGKILL), with the same webhook-id', async () => {
    await service?.stop();
    service = await startService({ DATABASE_URL: database.url, ...SERVICE_ENV });
    let api = apiClient(service.baseUrl);
    const insurer = newInsurer();
    receiver.script('/crash', [{ status: 200, delayMs: 10_000 }]);
    const subscription = await subscribe(api, insurer, receiver.url('/crash'));
    await evaluate(api, insurer, (await breachablePolicy(api, insurer)).policy_id);
    await eventually(() => receiver.received('/crash').length === 1);
    await service.kill();

    service = await startService({ DATABASE_URL: database.url, ...SERVICE_ENV });
    api = apiClient(service.baseUrl);
    const requests = await eventually(() => receiver.received('/crash').length >= 2 && receiver.received('/crash'));
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) verified(subscription.raw_secret, request);
    const deliveries = await eventually(async () => {
      const response = await api.get(`/insurance/webhooks/${subscription.webhook_id}/deliveries`, insurer);
      return response.body.items?.[0]?.status === 'delivered' && response.body;
    });
    expect(deliveries).toMatchObject({ total: 1, items: [{ status: 'delivered' }] });
  }, 120_000);
});
