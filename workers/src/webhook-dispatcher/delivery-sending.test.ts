import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { systemClock } from '@cropcover/runtime';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDeliverySending } from './delivery-sending';
import { createDispatcherMetrics } from './dispatcher-metrics';
import { createWebhookSender } from './webhook-request';

// A slow receiver holds every request until the test answers it: it must never see more than the
// endpoint's limit at once, however many of its deliveries are due, and a fast endpoint beside it must not
// wait behind it.

const WAIT = { timeout: 20_000, interval: 20 };
const PER_ENDPOINT = 3;

describe('sending due deliveries', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let port: number;
  const held: (() => void)[] = [];
  const received: { path: string; webhookId: string }[] = [];
  let slowInFlight = 0;
  let mostSlowInFlight = 0;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('delivery_sending');
    server = createServer((req, res) => {
      req.resume();
      received.push({ path: req.url ?? '', webhookId: String(req.headers['webhook-id']) });
      if (req.url === '/unrecordable' && received.filter(({ path }) => path === '/unrecordable').length === 1) {
        // The receiver has the delivery, but its outcome cannot be recorded (as when PostgreSQL goes
        // away between the send and its record): the attempts' table is out of reach.
        void sql`alter table if exists webhook_delivery_attempts rename to attempts_out_of_reach`
          .execute(t.db)
          .then(() => res.writeHead(200).end());
        return;
      }
      if (req.url !== '/slow') {
        res.writeHead(200).end();
        return;
      }
      slowInFlight += 1;
      mostSlowInFlight = Math.max(mostSlowInFlight, slowInFlight);
      held.push(() => {
        slowInFlight -= 1;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t?.close();
  });

  it('never has more than the endpoint limit in flight to a slow receiver, and sends each delivery once', async () => {
    const now = new Date();
    // Two subscriptions on the slow URL: the limit is the endpoint's, not each subscription's.
    const subscriptions = [
      { webhookId: 'wh-slow-1', path: '/slow' },
      { webhookId: 'wh-slow-2', path: '/slow' },
      { webhookId: 'wh-fast', path: '/fast' },
    ];
    for (const { webhookId, path } of subscriptions) {
      await t.db
        .insertInto('webhook_targets')
        .values({
          webhook_id: webhookId,
          organization_id: 'org-a',
          url: `http://127.0.0.1:${port}${path}`,
          is_active: true,
          created_commit_position: '0',
          created_prepare_position: '0',
        })
        .execute();
      await t.db
        .insertInto('webhook_secrets')
        .values({ webhook_id: webhookId, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0', created_at: now })
        .execute();
    }
    const deliveries = [
      ...Array.from({ length: 12 }, (_, i) => ({ event_id: `slow-${i}`, webhook_id: `wh-slow-${(i % 2) + 1}` })),
      ...Array.from({ length: 4 }, (_, i) => ({ event_id: `fast-${i}`, webhook_id: 'wh-fast' })),
    ];
    await t.db
      .insertInto('webhook_deliveries')
      .values(
        deliveries.map(({ event_id, webhook_id }) => ({
          event_id,
          webhook_id,
          policy_id: 'policy-1',
          payload: '{}',
          status: 'pending',
          attempt_count: 0,
          // The slow endpoint's deliveries are due first: the fast one's must not queue behind them.
          next_attempt_at: new Date(now.getTime() - (event_id.startsWith('slow') ? 1_000 : 0)),
          created_at: now,
        })),
      )
      .execute();

    const sending = startDeliverySending(
      {
        db: t.db,
        eventStore: t.eventStore,
        clock: systemClock,
        send: createWebhookSender(true),
        retryScale: 1,
        logger: t.logger,
      },
      { atOnce: 64, perEndpoint: PER_ENDPOINT },
      createDispatcherMetrics(t.db),
    );
    try {
      await vi.waitFor(() => {
        expect(received.filter(({ path }) => path === '/fast')).toHaveLength(4);
        expect(held).toHaveLength(PER_ENDPOINT);
      }, WAIT);
      // Answered one at a time, each answer lets exactly one more in.
      while (received.filter(({ path }) => path === '/slow').length < 12 || held.length > 0) {
        await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), WAIT);
        held.shift()?.();
      }
      await vi.waitFor(async () => {
        const settled = await t.db
          .selectFrom('webhook_deliveries')
          .select(['event_id', 'status', 'attempt_count'])
          .where('status', '=', 'delivered')
          .execute();
        expect(settled).toHaveLength(deliveries.length);
      }, WAIT);
    } finally {
      await sending.stop();
    }

    expect(mostSlowInFlight).toBe(PER_ENDPOINT);
    expect(received.map(({ webhookId }) => webhookId).sort()).toEqual(
      deliveries.map(({ event_id }) => event_id).sort(),
    );
    expect(
      await t.db.selectFrom('webhook_delivery_attempts').select(['event_id', 'attempt']).orderBy('event_id').execute(),
    ).toEqual(
      deliveries.map(({ event_id }) => ({ event_id, attempt: 1 })).sort((a, b) => a.event_id.localeCompare(b.event_id)),
    );
  }, 60_000);

  it('records an outcome it could not record when the database answers again, and does not send it twice', async () => {
    const now = new Date();
    await t.db
      .insertInto('webhook_targets')
      .values({
        webhook_id: 'wh-unrecordable',
        organization_id: 'org-a',
        url: `http://127.0.0.1:${port}/unrecordable`,
        is_active: true,
        created_commit_position: '0',
        created_prepare_position: '0',
      })
      .execute();
    await t.db
      .insertInto('webhook_secrets')
      .values({ webhook_id: 'wh-unrecordable', secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0', created_at: now })
      .execute();
    await t.db
      .insertInto('webhook_deliveries')
      .values({
        event_id: 'unrecordable-1',
        webhook_id: 'wh-unrecordable',
        policy_id: 'policy-1',
        payload: '{}',
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
    const sending = startDeliverySending(
      {
        db: t.db,
        eventStore: t.eventStore,
        clock: systemClock,
        send: createWebhookSender(true),
        retryScale: 1,
        logger: t.logger,
      },
      { atOnce: 64, perEndpoint: PER_ENDPOINT },
      createDispatcherMetrics(t.db),
    );
    const sentTo = () => received.filter(({ path }) => path === '/unrecordable');
    try {
      await vi.waitFor(() => expect(sentTo()).toHaveLength(1), WAIT);
      // Longer than a delivery's lease (5 s): the outcome is still not recorded when it would run out.
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      await sql`alter table attempts_out_of_reach rename to webhook_delivery_attempts`.execute(t.db);
      await vi.waitFor(async () => {
        const delivery = await t.db
          .selectFrom('webhook_deliveries')
          .select('status')
          .where('event_id', '=', 'unrecordable-1')
          .executeTakeFirstOrThrow();
        expect(delivery.status).toBe('delivered');
      }, WAIT);
    } finally {
      await sending.stop();
      await sql`alter table if exists attempts_out_of_reach rename to webhook_delivery_attempts`.execute(t.db);
    }
    expect(sentTo()).toHaveLength(1);
    expect(
      await t.db
        .selectFrom('webhook_delivery_attempts')
        .select(['event_id', 'attempt', 'status_code'])
        .where('event_id', '=', 'unrecordable-1')
        .execute(),
    ).toEqual([{ event_id: 'unrecordable-1', attempt: 1, status_code: 200 }]);
  }, 60_000);
});
