import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '@cropcover/eventstore';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { systemClock } from '@cropcover/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookDispatcher } from './webhook-dispatcher';

// Issue 32: the senders started before the delivery recorder, so a dispatcher whose recorder failed to
// start (its start rejected, the process told it failed) still claimed and sent deliveries, and renewed
// their leases, with nobody left to stop them.

describe('a webhook dispatcher whose delivery recorder fails to start', () => {
  let t: ProjectorTestDatabase;
  let receiver: Server;
  const received: string[] = [];

  beforeAll(async () => {
    t = await openProjectorTestDatabase('webhook_dispatcher_start');
    receiver = createServer((req, res) => {
      req.resume();
      received.push(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const now = new Date();
    await t.db
      .insertInto('webhook_targets')
      .values({
        webhook_id: 'wh-1',
        organization_id: 'org-a',
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        is_active: true,
        created_commit_position: '0',
        created_prepare_position: '0',
      })
      .execute();
    await t.db
      .insertInto('webhook_secrets')
      .values({ webhook_id: 'wh-1', secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0', created_at: now })
      .execute();
    await t.db
      .insertInto('webhook_deliveries')
      .values({
        event_id: 'breach-1',
        webhook_id: 'wh-1',
        policy_id: 'policy-1',
        payload: '{}',
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    await t?.close();
  });

  it('leaves nothing running: a due delivery is neither claimed nor sent', async () => {
    const unreachableLog = new Proxy(t.eventStore, {
      get: (store, key, proxy) =>
        key === 'subscribeToAll'
          ? () => {
              throw new Error('the log cannot be followed');
            }
          : Reflect.get(store, key, proxy),
    }) satisfies EventStore;
    await expect(
      startWebhookDispatcher({
        eventStore: unreachableLog,
        db: t.db,
        clock: systemClock,
        logger: t.logger,
        allowInsecure: true,
        retryScale: 1,
        sending: { atOnce: 64, perEndpoint: 8 },
        auditGate: { awaitCheckpoint: false },
      }),
    ).rejects.toThrow('the log cannot be followed');
    // A running claim loop looks at once, then every 250 ms: a second is four looks it did not take.
    await sleep(1_000);
    expect(received).toEqual([]);
    const delivery = await t.db
      .selectFrom('webhook_deliveries')
      .select(['lease_id', 'attempt_count', 'status'])
      .where('event_id', '=', 'breach-1')
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ lease_id: null, attempt_count: 0, status: 'pending' });
  });
});
