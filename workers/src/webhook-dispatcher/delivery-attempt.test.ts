import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { type SettableClock, settableClock } from '@cropcover/runtime';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAttemptRecorder } from './attempt-recorder';
import { attemptDelivery, claimDueDeliveries, DELIVERY_LEASE_MS, type DeliveryAttemptDeps } from './delivery-attempt';
import { startDeliverySending } from './delivery-sending';
import { createDispatcherMetrics } from './dispatcher-metrics';
import { createWebhookSender } from './webhook-request';

// Issue 11, fault 1: the dispatcher held a row lock, so an open transaction, across the HTTP send, and an
// open transaction holds back what every reader of the log may see. A delivery is now leased in a
// transaction that commits before the send.

const NOW = new Date('2026-05-01T08:00:00.000Z');

describe('attempting a due delivery', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let port: number;
  let clock: SettableClock;
  let deps: DeliveryAttemptDeps;
  /** Each request the receiver holds, answered when the test says so. */
  const held: { respond: (status: number) => void }[] = [];
  let arrived: () => void = () => {};

  beforeAll(async () => {
    t = await openProjectorTestDatabase('delivery_attempt');
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      held.push({ respond: (status) => res.writeHead(status).end() });
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t?.close();
  });
  beforeEach(async () => {
    clock = settableClock(NOW);
    deps = {
      db: t.db,
      eventStore: t.eventStore,
      clock,
      send: createWebhookSender(true),
      retryScale: 1,
      logger: t.logger,
    };
    await sql`truncate webhook_delivery_attempts, webhook_deliveries, webhook_targets, webhook_secrets`.execute(t.db);
    await t.db
      .insertInto('webhook_targets')
      .values({
        webhook_id: 'wh-1',
        organization_id: 'org-a',
        url: `http://127.0.0.1:${port}/hook`,
        is_active: true,
        created_commit_position: '1',
        created_prepare_position: '1',
      })
      .execute();
    await t.db
      .insertInto('webhook_secrets')
      .values({ webhook_id: 'wh-1', secret: 'whsec_c2VjcmV0', created_at: NOW })
      .execute();
    await t.db
      .insertInto('webhook_deliveries')
      .values({
        event_id: 'ev-1',
        webhook_id: 'wh-1',
        policy_id: 'policy-1',
        payload: '{}',
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: NOW,
        created_at: NOW,
      })
      .execute();
  });

  /** Claims the next due delivery and sends it, as one sender of the dispatcher does. */
  const attemptDueDelivery = async (attemptDeps: DeliveryAttemptDeps, signal: AbortSignal) => {
    const [due] = await claimDueDeliveries(attemptDeps.db, attemptDeps.clock.now(), randomUUID(), {
      count: 1,
      perEndpoint: 8,
    });
    if (!due) return undefined;
    return attemptDelivery(
      attemptDeps,
      createAttemptRecorder(attemptDeps.db, attemptDeps.eventStore, attemptDeps.logger, signal),
      due,
      signal,
    );
  };
  const nextArrival = () =>
    new Promise<void>((resolve) => {
      arrived = resolve;
    });
  const openTransactions = async (): Promise<number> => {
    const { rows } = await sql<{ count: string }>`
      select count(*) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (state like 'idle in transaction%' or backend_xid is not null)`.execute(t.db);
    return Number(rows[0]!.count);
  };
  const delivery = () =>
    t.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', 'ev-1').executeTakeFirstOrThrow();

  it('holds no transaction open while the receiver takes its time', async () => {
    const receiving = nextArrival();
    const attempt = attemptDueDelivery(deps, new AbortController().signal);
    await receiving;
    expect(await openTransactions()).toBe(0);
    expect(await delivery()).toMatchObject({
      status: 'pending',
      leased_until: new Date(NOW.getTime() + DELIVERY_LEASE_MS),
    });
    held.shift()!.respond(200);
    expect(await attempt).toBe('delivered');
    expect(await delivery()).toMatchObject({
      status: 'delivered',
      attempt_count: 1,
      lease_id: null,
      leased_until: null,
    });
  });

  it('sends a delivery leased by a sender that died to no one until its lease runs out, then again', async () => {
    // A dead sender's lease: taken, never renewed, never cleared.
    await t.db
      .updateTable('webhook_deliveries')
      .set({ lease_id: randomUUID(), leased_until: new Date(NOW.getTime() + DELIVERY_LEASE_MS) })
      .execute();
    expect(await attemptDueDelivery(deps, new AbortController().signal)).toBeUndefined();
    clock.set(new Date(NOW.getTime() + DELIVERY_LEASE_MS));
    const again = nextArrival();
    const retry = attemptDueDelivery(deps, new AbortController().signal);
    await again;
    held.shift()!.respond(204);
    expect(await retry).toBe('delivered');
  });

  it('records nothing when its lease was taken over before the answer came', async () => {
    const receiving = nextArrival();
    const attempt = attemptDueDelivery(deps, new AbortController().signal);
    await receiving;
    await t.db.updateTable('webhook_deliveries').set({ lease_id: randomUUID() }).execute();
    held.shift()!.respond(200);
    expect(await attempt).toBeUndefined();
    expect(await t.db.selectFrom('webhook_delivery_attempts').selectAll().execute()).toEqual([]);
  });

  it('gives the delivery back, unattempted, when the dispatcher stops mid-send', async () => {
    const receiving = nextArrival();
    const sending = startDeliverySending(deps, { atOnce: 4, perEndpoint: 2 }, createDispatcherMetrics(t.db));
    await receiving;
    await sending.stop();
    held.shift()?.respond(200);
    expect(await delivery()).toMatchObject({ status: 'pending', attempt_count: 0, lease_id: null, leased_until: null });
  });
});
