import type { EventStore } from '@cropcover/eventstore';
import { startProjector } from '@cropcover/projector';
import type { ListenToCheckpointPublications, ReadModels } from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { AuditGate } from './breach-deliveries';
import { startCheckpointedRelease } from './checkpointed-deliveries';
import { deliveryRecorder } from './delivery-recorder';
import { type SendingLimits, startDeliverySending } from './delivery-sending';
import { createDispatcherMetrics } from './dispatcher-metrics';
import { consumeBreachesFromKafka, type KafkaBreachSource } from './kafka-breach-consumer';
import { createWebhookSender } from './webhook-request';

export interface WebhookDispatcherOptions {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** WEBHOOK_ALLOW_INSECURE: http and non-public receivers are allowed. */
  readonly allowInsecure: boolean;
  /** WEBHOOK_RETRY_SCALE: multiplies the retry delays. */
  readonly retryScale: number;
  /** WEBHOOK_SENDS_AT_ONCE and WEBHOOK_SENDS_PER_ENDPOINT. */
  readonly sending: SendingLimits;
  readonly metricsRegistry?: Registry;
  /** KAFKA_BROKERS set: breaches are consumed from Kafka rather than taken from the log. */
  readonly kafka?: KafkaBreachSource;
  /** The audit log is on: deliveries wait for a published checkpoint covering their breach. */
  readonly auditGate: AuditGate;
  /** How the gate hears of checkpoint publications; without it, it polls. */
  readonly hearCheckpoints?: ListenToCheckpointPublications;
}

export interface WebhookDispatcher {
  /** Stops recording and sending; attempts in flight are abandoned, not counted, and made again later. */
  stop(): Promise<void>;
}

/** Every append passes the recorder, and almost none is a breach: it reads the log at most every 50 ms,
 *  a batch and a transaction for all that was appended meanwhile, instead of one per append. A breach's
 *  webhook is at most that much later (the goal is p99 < 500 ms). */
const RECORDER_GATHER_MS = 50;

/** The webhook dispatcher (SPEC §7): records breaches, from Kafka when configured and else from the event
 *  store subscription, into `webhook_deliveries`, and sends what is due with retries. All its state is in PostgreSQL, so it
 *  survives restarts, and any number of dispatchers may run side by side. */
export const startWebhookDispatcher = async ({
  eventStore,
  db,
  clock,
  logger,
  allowInsecure,
  retryScale,
  sending,
  metricsRegistry,
  kafka,
  auditGate,
  hearCheckpoints,
}: WebhookDispatcherOptions): Promise<WebhookDispatcher> => {
  const metrics = createDispatcherMetrics(db, metricsRegistry);
  const stopping = new AbortController();
  let recordedSinceWake = false;
  const recorder = await startProjector({
    eventStore,
    db,
    projections: [
      deliveryRecorder(eventStore, clock, {
        breachesFromLog: !kafka,
        auditGate,
        onBreachRecorded: () => {
          recordedSinceWake = true;
        },
      }),
    ],
    logger,
    gatherMs: RECORDER_GATHER_MS,
  });
  // Started once the recorder is, so a recorder that failed to start leaves no claim loop, lease renewal or
  // gate (and its listener) running. Deliveries the recorder records meanwhile are claimed at the first look.
  const senders = startDeliverySending(
    { db, eventStore, clock, send: createWebhookSender(allowInsecure), retryScale, logger },
    sending,
    metrics,
  );
  const release = auditGate.awaitCheckpoint
    ? startCheckpointedRelease({
        db,
        ...(hearCheckpoints ? { hear: hearCheckpoints } : {}),
        onReleased: senders.wake,
        logger,
      })
    : undefined;
  // Once a batch that recorded deliveries has committed, they are due at once, or (behind the gate) may be
  // covered by a checkpoint published already; the many batches that record none (every farm and policy
  // event passes the recorder) wake nobody.
  const recorded = (): void => {
    senders.wake();
    release?.wake();
  };
  recorder.onAdvanced(() => {
    if (!recordedSinceWake) return;
    recordedSinceWake = false;
    recorded();
  });
  const breachConsumer = kafka
    ? consumeBreachesFromKafka(kafka, {
        eventStore,
        db,
        clock,
        logger,
        stopping: stopping.signal,
        onRecorded: recorded,
        auditGate,
      })
    : undefined;
  logger.info(
    { allowInsecure, retryScale, ...sending, breachesFrom: kafka ? 'kafka' : 'log', ...auditGate },
    'webhook dispatcher started',
  );
  return {
    stop: async () => {
      stopping.abort(new Error('webhook dispatcher stopping'));
      await breachConsumer?.stop();
      await release?.stop();
      await senders.stop();
      await recorder.stop();
      logger.info('webhook dispatcher stopped');
    },
  };
};
