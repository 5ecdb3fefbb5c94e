import { nextDeliveryAttemptAt } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock } from '@cropcover/runtime';
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
}

/** The next due delivery nobody else is sending, with what sending it takes. Locked until the
 *  transaction ends, so several dispatchers never send the same delivery at once, and a process that dies
 *  mid-send releases it (its connection closes) for the next one to send again: at least once. */
const claimDueDelivery = (trx: Transaction<ReadModels>, now: Date) =>
  trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_targets as t', 't.webhook_id', 'd.webhook_id')
    .innerJoin('webhook_secrets as s', 's.webhook_id', 'd.webhook_id')
    .select(['d.event_id', 'd.webhook_id', 'd.payload', 'd.attempt_count', 't.url', 't.organization_id', 's.secret'])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where('t.is_active', '=', true)
    .orderBy('d.next_attempt_at')
    .limit(1)
    .forUpdate('d')
    .skipLocked()
    .executeTakeFirst();

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

/** Sends one due delivery and records the attempt; undefined when nothing is due. An attempt cut short
 *  by `signal` (the dispatcher stopping) is rolled back: not counted, and sent again later. */
export const attemptDueDelivery = (
  deps: DeliveryAttemptDeps,
  signal: AbortSignal,
): Promise<DeliveryOutcome | undefined> =>
  deps.db.transaction().execute(async (trx) => {
    const delivery = await claimDueDelivery(trx, deps.clock.now());
    if (!delivery) return undefined;
    const attemptedAt = deps.clock.now();
    const answer = await deps.send({
      url: delivery.url,
      eventId: delivery.event_id,
      body: delivery.payload,
      secret: delivery.secret,
      now: attemptedAt,
      signal,
    });
    if (signal.aborted) throw signal.reason;
    const attempt = delivery.attempt_count + 1;
    const retryAt = nextDeliveryAttemptAt(attempt, deps.clock.now(), deps.retryScale);
    const outcome = outcomeOf(answer, retryAt);
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
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: statusOf[outcome],
        attempt_count: attempt,
        next_attempt_at: outcome === 'retry_scheduled' ? (retryAt ?? null) : null,
      })
      .where('event_id', '=', delivery.event_id)
      .where('webhook_id', '=', delivery.webhook_id)
      .execute();
    // Before the commit: if the deactivation cannot be recorded, the attempt is rolled back and made again.
    if (outcome === 'gone')
      await deactivateGoneEndpoint(deps.eventStore, delivery.webhook_id, delivery.organization_id, attemptedAt);
    return outcome;
  });
