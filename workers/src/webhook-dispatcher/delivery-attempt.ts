import { nextDeliveryAttemptAt } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { type Clock, contextOfCarrier, inSpan, type Logger } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';
import type { AttemptRecorder } from './attempt-recorder';
import type { DeliveryOutcome } from './dispatcher-metrics';
import type { WebhookAnswer, WebhookSender } from './webhook-request';

export interface DeliveryAttemptDeps {
  readonly db: Kysely<ReadModels>;
  readonly eventStore: EventStore;
  readonly clock: Clock;
  readonly send: WebhookSender;
  readonly retryScale: number;
  readonly logger: Logger;
}

/** How long a claimed delivery stays reserved to its sender without being renewed. The sender renews its
 *  leases every `LEASE_RENEWAL_MS` while they wait for their turn or their receiver, so a sender that
 *  dies mid-send frees its deliveries within seconds, however long receivers take. */
export const DELIVERY_LEASE_MS = 5_000;
export const LEASE_RENEWAL_MS = 1_500;

/** A due delivery leased to this process, with what sending it needs. */
export interface ClaimedDelivery {
  readonly event_id: string;
  readonly webhook_id: string;
  readonly payload: string;
  readonly attempt_count: number;
  readonly traceparent: string | null;
  readonly tracestate: string | null;
  readonly url: string;
  readonly organization_id: string;
  readonly secret: string;
  /** The claim's lease: recording the attempt, renewing or releasing it needs the lease to be still this. */
  readonly lease_id: string;
}

export interface ClaimLimits {
  /** Most deliveries this claim takes. */
  readonly count: number;
  /** Most deliveries to one endpoint (URL) leased at once, by any dispatcher: one endpoint's backlog cannot
   *  take every place of a claim while other endpoints wait. */
  readonly perEndpoint: number;
}

/** Leases up to `count` due deliveries nobody else is sending (and, behind the audit gate, whose breach a
 *  published checkpoint covers), oldest due first, leaving out endpoints that
 *  already have `perEndpoint` deliveries leased: one statement that commits before anything is sent, so
 *  no transaction stays open while receivers take their time (an open one holds back what every reader
 *  of the log may see). A row another claim leased meanwhile is re-checked and skipped, so several
 *  dispatchers never send one delivery at once. */
export const claimDueDeliveries = async (
  db: Kysely<ReadModels>,
  now: Date,
  leaseId: string,
  { count, perEndpoint }: ClaimLimits,
): Promise<ClaimedDelivery[]> => {
  const leasedUntil = new Date(now.getTime() + DELIVERY_LEASE_MS);
  const { rows } = await sql<ClaimedDelivery>`
    with leased as (
      select t.url, count(*) as deliveries
        from webhook_deliveries d join webhook_targets t on t.webhook_id = d.webhook_id
       where d.status = 'pending' and d.leased_until > ${now}
       group by t.url
    ), due as (
      select d.event_id, d.webhook_id, d.next_attempt_at,
             coalesce(l.deliveries, 0)
               + row_number() over (partition by t.url order by d.next_attempt_at, d.event_id, d.webhook_id) as place
        from webhook_deliveries d
        join webhook_targets t on t.webhook_id = d.webhook_id
        left join leased l on l.url = t.url
       where d.status = 'pending' and d.next_attempt_at <= ${now} and not d.awaiting_checkpoint
         and (d.leased_until is null or d.leased_until <= ${now})
         and t.is_active
    ), chosen as (
      select event_id, webhook_id from due
       where place <= ${perEndpoint}
       order by next_attempt_at, event_id, webhook_id
       limit ${count}
    )
    update webhook_deliveries d
       set lease_id = ${leaseId}, leased_until = ${leasedUntil}
      from chosen c, webhook_targets t, webhook_secrets s
     where d.event_id = c.event_id and d.webhook_id = c.webhook_id
       and t.webhook_id = d.webhook_id and s.webhook_id = d.webhook_id
       and d.status = 'pending' and (d.leased_until is null or d.leased_until <= ${now})
    returning d.event_id, d.webhook_id, d.payload, d.attempt_count, d.traceparent, d.tracestate,
              t.url, t.organization_id, s.secret, d.lease_id`.execute(db);
  return rows;
};

/** Keeps the claims' deliveries leased to this process while they wait for their turn or their receiver;
 *  those already recorded have no lease any more and are left alone. */
export const renewLeases = async (db: Kysely<ReadModels>, now: Date, leaseIds: readonly string[]): Promise<void> => {
  if (leaseIds.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({ leased_until: new Date(now.getTime() + DELIVERY_LEASE_MS) })
    .where('lease_id', 'in', leaseIds)
    .execute();
};

/** Gives the claims' deliveries not yet recorded back unattempted (the dispatcher is stopping), for the
 *  next sender at once. */
export const releaseLeases = async (db: Kysely<ReadModels>, leaseIds: readonly string[]): Promise<void> => {
  if (leaseIds.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_id: null, leased_until: null })
    .where('lease_id', 'in', leaseIds)
    .execute();
};

const outcomeOf = (answer: WebhookAnswer, nextAttemptAt: Date | undefined): DeliveryOutcome => {
  if (answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300) return 'delivered';
  if (answer.statusCode === 410) return 'gone';
  return nextAttemptAt ? 'retry_scheduled' : 'failed';
};

/** Sends one claimed delivery and has its attempt recorded; undefined when the lease ran out before the
 *  answer was recorded (another sender has the delivery then, and records its own). An attempt cut short
 *  by `signal` (the dispatcher stopping) is not counted and is made again. */
export const attemptDelivery = (
  deps: DeliveryAttemptDeps,
  recorder: AttemptRecorder,
  delivery: ClaimedDelivery,
  signal: AbortSignal,
): Promise<DeliveryOutcome | undefined> =>
  // A span per attempt in the trace the breach was recorded in (a root of its own for a breach recorded
  // untraced), so the time between breach and send, and each retry, shows in the request's trace. It
  // ends once the attempt is recorded.
  inSpan(
    'deliver webhook',
    {
      attributes: {
        'cropcover.webhook_id': delivery.webhook_id,
        'cropcover.event_id': delivery.event_id,
        'cropcover.attempt': delivery.attempt_count + 1,
      },
    },
    async (span) => {
      const outcome = await sendAndRecord(deps, recorder, delivery, signal);
      if (outcome) span.setAttribute('cropcover.delivery_outcome', outcome);
      return outcome;
    },
    contextOfCarrier({
      ...(delivery.traceparent ? { traceparent: delivery.traceparent } : {}),
      ...(delivery.tracestate ? { tracestate: delivery.tracestate } : {}),
    }),
  );

const sendAndRecord = async (
  deps: DeliveryAttemptDeps,
  recorder: AttemptRecorder,
  delivery: ClaimedDelivery,
  signal: AbortSignal,
): Promise<DeliveryOutcome | undefined> => {
  const attemptedAt = deps.clock.now();
  const answer = await deps.send({
    url: delivery.url,
    eventId: delivery.event_id,
    body: delivery.payload,
    secret: delivery.secret,
    now: attemptedAt,
    signal,
  });
  // Its lease is given back with the others the stopping dispatcher holds.
  if (signal.aborted) throw signal.reason;
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
  return recorder.record({
    delivery,
    outcome,
    attempt,
    attemptedAt,
    nextAttemptAt: outcome === 'retry_scheduled' ? (retryAt ?? null) : null,
    statusCode: answer.statusCode,
    latencyMs: answer.latencyMs,
    error: answer.error ?? (outcome === 'delivered' ? null : `receiver answered ${answer.statusCode}`),
  });
};
