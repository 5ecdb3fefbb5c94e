import { randomUUID } from 'node:crypto';
import { nextDeliveryAttemptAt } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { type Clock, contextOfCarrier, inSpan, type Logger } from '@cropcover/runtime';
import type { Kysely, Transaction } from 'kysely';
import type { DeliveryOutcome } from './dispatcher-metrics';
import { deactivateGoneEndpoint } from './endpoint-gone';
import type { WebhookAnswer, WebhookSender } from './webhook-request';

export interface DeliveryAttemptDeps {
  readonly db: Kysely<ReadModels>;
  readonly eventStore: EventStore;
  readonly clock: Clock;
  readonly send: WebhookSender;
  readonly retryScale: number;
  readonly logger: Logger;
}

/** How long a claimed delivery stays reserved to its sender without being renewed. The sender renews it
 *  every `LEASE_RENEWAL_MS` while it waits for the receiver, so a sender that dies mid-send frees its
 *  delivery within seconds, however long receivers take. */
export const DELIVERY_LEASE_MS = 5_000;
const LEASE_RENEWAL_MS = 1_500;

type ClaimedDelivery = NonNullable<Awaited<ReturnType<typeof findDueDelivery>>>;

const findDueDelivery = (trx: Transaction<ReadModels>, now: Date) =>
  trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_targets as t', 't.webhook_id', 'd.webhook_id')
    .innerJoin('webhook_secrets as s', 's.webhook_id', 'd.webhook_id')
    .select([
      'd.event_id',
      'd.webhook_id',
      'd.payload',
      'd.attempt_count',
      'd.traceparent',
      'd.tracestate',
      't.url',
      't.organization_id',
      's.secret',
    ])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.leased_until', 'is', null), eb('d.leased_until', '<=', now)]))
    .where('t.is_active', '=', true)
    .orderBy('d.next_attempt_at')
    .limit(1)
    .forUpdate('d')
    .skipLocked()
    .executeTakeFirst();

/** The next due delivery nobody else is sending, leased to `leaseId` in a transaction of its own that
 *  commits before anything is sent: no transaction stays open while a receiver takes its time (an open one
 *  holds back what every reader of the log may see). Several dispatchers never send one delivery at once. */
const claimDueDelivery = (db: Kysely<ReadModels>, now: Date, leaseId: string) =>
  db.transaction().execute(async (trx) => {
    const due = await findDueDelivery(trx, now);
    if (!due) return undefined;
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_id: leaseId, leased_until: new Date(now.getTime() + DELIVERY_LEASE_MS) })
      .where('event_id', '=', due.event_id)
      .where('webhook_id', '=', due.webhook_id)
      .execute();
    return due;
  });

/** Keeps the delivery leased to this sender while it waits for the receiver. */
const renewLease = (deps: DeliveryAttemptDeps, delivery: ClaimedDelivery, leaseId: string) =>
  deps.db
    .updateTable('webhook_deliveries')
    .set({ leased_until: new Date(deps.clock.now().getTime() + DELIVERY_LEASE_MS) })
    .where('event_id', '=', delivery.event_id)
    .where('webhook_id', '=', delivery.webhook_id)
    .where('lease_id', '=', leaseId)
    .execute();

/** Gives a delivery back unattempted (the dispatcher is stopping), for the next sender at once. */
const releaseLease = (db: Kysely<ReadModels>, delivery: ClaimedDelivery, leaseId: string) =>
  db
    .updateTable('webhook_deliveries')
    .set({ lease_id: null, leased_until: null })
    .where('event_id', '=', delivery.event_id)
    .where('webhook_id', '=', delivery.webhook_id)
    .where('lease_id', '=', leaseId)
    .execute();

const outcomeOf = (answer: WebhookAnswer, nextAttemptAt: Date | undefined): DeliveryOutcome => {
  if (answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300) return 'delivered';
  if (answer.statusCode === 410) return 'gone';
  return nextAttemptAt ? 'retry_scheduled' : 'failed';
};

const statusOf: Record<DeliveryOutcome, string> = {
  delivered: 'delivered',
  gone: 'failed',
  failed: 'failed',
  retry_scheduled: 'pending',
};

/** Sends one due delivery and records the attempt; undefined when nothing is due, or when the lease ran
 *  out before the answer was recorded (another sender has the delivery then, and records its own). An
 *  attempt cut short by `signal` (the dispatcher stopping) is not counted and is made again. */
export const attemptDueDelivery = async (
  deps: DeliveryAttemptDeps,
  signal: AbortSignal,
): Promise<DeliveryOutcome | undefined> => {
  const leaseId = randomUUID();
  const delivery = await claimDueDelivery(deps.db, deps.clock.now(), leaseId);
  if (!delivery) return undefined;
  // A span per attempt in the trace the breach was recorded in (a root of its own for a breach recorded
  // untraced), so the time between breach and send, and each retry, shows in the request's trace.
  return inSpan(
    'deliver webhook',
    {
      attributes: {
        'cropcover.webhook_id': delivery.webhook_id,
        'cropcover.event_id': delivery.event_id,
        'cropcover.attempt': delivery.attempt_count + 1,
      },
    },
    async (span) => {
      const outcome = await sendAndRecord(deps, delivery, leaseId, signal);
      if (outcome) span.setAttribute('cropcover.delivery_outcome', outcome);
      return outcome;
    },
    contextOfCarrier({
      ...(delivery.traceparent ? { traceparent: delivery.traceparent } : {}),
      ...(delivery.tracestate ? { tracestate: delivery.tracestate } : {}),
    }),
  );
};

const sendAndRecord = async (
  deps: DeliveryAttemptDeps,
  delivery: ClaimedDelivery,
  leaseId: string,
  signal: AbortSignal,
): Promise<DeliveryOutcome | undefined> => {
  const attemptedAt = deps.clock.now();
  const renewal = setInterval(() => {
    renewLease(deps, delivery, leaseId).catch((error: unknown) =>
      deps.logger.warn({ err: error, event_id: delivery.event_id }, 'could not renew a webhook delivery lease'),
    );
  }, LEASE_RENEWAL_MS);
  const answer = await deps
    .send({
      url: delivery.url,
      eventId: delivery.event_id,
      body: delivery.payload,
      secret: delivery.secret,
      now: attemptedAt,
      signal,
    })
    .finally(() => clearInterval(renewal));
  if (signal.aborted) {
    await releaseLease(deps.db, delivery, leaseId);
    throw signal.reason;
  }
  // The subscriber sees the attempt's generic reason; the operator's log gets what really happened.
  if (answer.detail !== null) {
    deps.logger.warn(
      { webhook_id: delivery.webhook_id, event_id: delivery.event_id, detail: answer.detail },
      'webhook delivery attempt failed',
    );
  }
  const attempt = delivery.attempt_count + 1;
  const retryAt = nextDeliveryAttemptAt(attempt, deps.clock.now(), deps.retryScale);
  const outcome = outcomeOf(answer, retryAt);
  return deps.db.transaction().execute(async (trx) => {
    const recorded = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: statusOf[outcome],
        attempt_count: attempt,
        next_attempt_at: outcome === 'retry_scheduled' ? (retryAt ?? null) : null,
        lease_id: null,
        leased_until: null,
      })
      .where('event_id', '=', delivery.event_id)
      .where('webhook_id', '=', delivery.webhook_id)
      .where('lease_id', '=', leaseId)
      .executeTakeFirst();
    if (recorded.numUpdatedRows === 0n) return undefined;
    await trx
      .insertInto('webhook_delivery_attempts')
      .values({
        event_id: delivery.event_id,
        webhook_id: delivery.webhook_id,
        attempt,
        attempted_at: attemptedAt,
        status_code: answer.statusCode,
        latency_ms: answer.latencyMs,
        error: answer.error ?? (outcome === 'delivered' ? null : `receiver answered ${answer.statusCode}`),
      })
      .execute();
    // Before the commit: if the deactivation cannot be recorded, the attempt is rolled back and made again.
    if (outcome === 'gone')
      await deactivateGoneEndpoint(deps.eventStore, delivery.webhook_id, delivery.organization_id, attemptedAt);
    return outcome;
  });
};
