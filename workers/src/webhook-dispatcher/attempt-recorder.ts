import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { type Logger, pauseUnlessAborted } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';
import type { ClaimedDelivery } from './delivery-attempt';
import type { DeliveryOutcome } from './dispatcher-metrics';
import { deactivateGoneEndpoint } from './endpoint-gone';

/** One answered send, to be recorded on its delivery and in the attempts. */
export interface AnsweredAttempt {
  readonly delivery: ClaimedDelivery;
  readonly outcome: DeliveryOutcome;
  readonly attempt: number;
  readonly attemptedAt: Date;
  readonly nextAttemptAt: Date | null;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

export interface AttemptRecorder {
  /** Resolves with the outcome once recorded, or undefined when the delivery's lease was no longer this
   *  attempt's (another sender has it, and records its own). A record that fails is tried again until it
   *  is written; rejects only when the dispatcher stops first. */
  record(attempt: AnsweredAttempt): Promise<DeliveryOutcome | undefined>;
  /** Answered attempts whose record failed and waits to be tried again: while there are any, the
   *  database is failing, and a delivery whose outcome is not recorded must not be claimed again. */
  unrecorded(): number;
}

/** Wait between tries of a batch whose record failed (the database unreachable, restarting, full). */
const RECORD_RETRY_MS = 500;

const statusOf: Record<DeliveryOutcome, string> = {
  delivered: 'delivered',
  gone: 'failed',
  failed: 'failed',
  retry_scheduled: 'pending',
};

const keyOf = ({ event_id, webhook_id }: { event_id: string; webhook_id: string }): string =>
  `${event_id}\u0000${webhook_id}`;

/** Settles each delivery still leased to its attempt and adds the attempt, for a whole batch in one
 *  statement; the keys of those recorded. */
const recordAttempts = async (db: Kysely<ReadModels>, attempts: readonly AnsweredAttempt[]): Promise<Set<string>> => {
  const column = <T>(of: (attempt: AnsweredAttempt) => T): T[] => attempts.map(of);
  const { rows } = await sql<{ event_id: string; webhook_id: string }>`
    with answered as (
      select * from unnest(
        ${column((a) => a.delivery.event_id)}::text[],
        ${column((a) => a.delivery.webhook_id)}::text[],
        ${column((a) => a.delivery.lease_id)}::uuid[],
        ${column((a) => statusOf[a.outcome])}::text[],
        ${column((a) => a.attempt)}::integer[],
        ${column((a) => a.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
        ${column((a) => a.attemptedAt.toISOString())}::timestamptz[],
        ${column((a) => a.statusCode)}::integer[],
        ${column((a) => a.latencyMs)}::integer[],
        ${column((a) => a.error)}::text[]
      ) as a(event_id, webhook_id, lease_id, status, attempt, next_attempt_at, attempted_at, status_code, latency_ms, error)
    ), settled as (
      update webhook_deliveries d
         set status = a.status, attempt_count = a.attempt, next_attempt_at = a.next_attempt_at,
             lease_id = null, leased_until = null
        from answered a
       where d.event_id = a.event_id and d.webhook_id = a.webhook_id and d.lease_id = a.lease_id
      returning d.event_id, d.webhook_id, a.lease_id
    )
    insert into webhook_delivery_attempts (event_id, webhook_id, attempt, attempted_at, status_code, latency_ms, error)
    select a.event_id, a.webhook_id, a.attempt, a.attempted_at, a.status_code, a.latency_ms, a.error
      from answered a
      -- By lease too: one delivery sent twice under two leases (the first ran out during a stall) may be
      -- answered twice in one batch; only the attempt whose lease settled it is recorded.
      join settled s on s.event_id = a.event_id and s.webhook_id = a.webhook_id and s.lease_id = a.lease_id
    returning event_id, webhook_id`.execute(db);
  return new Set(rows.map(keyOf));
};

/** A 410: the attempt and the subscription's deactivation together, before the commit, so if the
 *  deactivation cannot be recorded the attempt is rolled back and made again. */
const recordGone = (db: Kysely<ReadModels>, eventStore: EventStore, attempt: AnsweredAttempt): Promise<boolean> =>
  db.transaction().execute(async (trx) => {
    const recorded = await recordAttempts(trx, [attempt]);
    if (recorded.size === 0) return false;
    const { delivery, attemptedAt } = attempt;
    await deactivateGoneEndpoint(eventStore, delivery.webhook_id, delivery.organization_id, attemptedAt);
    return true;
  });

interface Waiting {
  readonly attempt: AnsweredAttempt;
  readonly resolve: (outcome: DeliveryOutcome | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/** Records answered attempts in batches: the attempts answered while one batch is being written go
 *  together in the next (one statement, one commit), so a burst costs a commit per batch, not per send. */
export const createAttemptRecorder = (
  db: Kysely<ReadModels>,
  eventStore: EventStore,
  logger: Logger,
  stopping: AbortSignal,
): AttemptRecorder => {
  let waiting: Waiting[] = [];
  let failed: Waiting[] = [];
  /** Of the batch being written, how many failed before: still unrecorded until it commits. */
  let retrying = 0;
  let writing = false;

  const writeBatch = async (batch: readonly Waiting[]): Promise<void> => {
    const gone = batch.filter(({ attempt }) => attempt.outcome === 'gone');
    const rest = batch.filter(({ attempt }) => attempt.outcome !== 'gone');
    const settle = async (part: readonly Waiting[], write: () => Promise<Set<string>>): Promise<void> => {
      if (part.length === 0) return;
      try {
        const recorded = await write();
        for (const { attempt, resolve } of part)
          resolve(recorded.has(keyOf(attempt.delivery)) ? attempt.outcome : undefined);
      } catch (error) {
        // Kept, not dropped: an outcome dropped here would have its delivery sent again, under the same
        // webhook-id, once its lease ran out (docs/reliability.md, scenario 2).
        logger.warn(
          { err: error, attempts: part.length },
          'could not record webhook attempts; they are recorded once the database answers',
        );
        failed.push(...part);
      }
    };
    await settle(rest, () =>
      recordAttempts(
        db,
        rest.map(({ attempt }) => attempt),
      ),
    );
    // Rare, and each appends an event of its own: one at a time.
    for (const one of gone)
      await settle([one], async () =>
        (await recordGone(db, eventStore, one.attempt)) ? new Set([keyOf(one.attempt.delivery)]) : new Set(),
      );
  };

  const writeAll = async (): Promise<void> => {
    writing = true;
    while (waiting.length > 0 || failed.length > 0) {
      if (stopping.aborted) {
        for (const { reject } of [...failed, ...waiting]) reject(stopping.reason);
        failed = [];
        waiting = [];
        break;
      }
      if (failed.length > 0) {
        await pauseUnlessAborted(RECORD_RETRY_MS, stopping);
        if (stopping.aborted) continue;
      }
      const batch = [...failed, ...waiting];
      retrying = failed.length;
      failed = [];
      waiting = [];
      await writeBatch(batch);
      retrying = 0;
    }
    writing = false;
  };

  return {
    record: (attempt) =>
      new Promise((resolve, reject) => {
        waiting.push({ attempt, resolve, reject });
        if (!writing) void writeAll();
      }),
    unrecorded: () => failed.length + retrying,
  };
};
