import type { EventStore } from '@cropcover/eventstore';
import { startProjector } from '@cropcover/projector';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import { attemptDueDelivery } from './delivery-attempt';
import { deliveryRecorder } from './delivery-recorder';
import { createDispatcherMetrics } from './dispatcher-metrics';
import { consumeBreachesFromKafka, type KafkaBreachSource } from './kafka-breach-consumer';
import { createWebhookSender } from './webhook-request';

/** Deliveries sent at once by one process. */
const SENDERS = 4;
/** How often an idle sender looks for retries that came due; newly recorded breaches wake it at once. */
const IDLE_POLL_MS = 250;

export interface WebhookDispatcherOptions {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** WEBHOOK_ALLOW_INSECURE: http and non-public receivers are allowed. */
  readonly allowInsecure: boolean;
  /** WEBHOOK_RETRY_SCALE: multiplies the retry delays. */
  readonly retryScale: number;
  readonly metricsRegistry?: Registry;
  /** KAFKA_BROKERS set: breaches are consumed from Kafka rather than taken from the log. */
  readonly kafka?: KafkaBreachSource;
}

export interface WebhookDispatcher {
  /** Stops recording and sending; attempts in flight are abandoned, not counted, and made again later. */
  stop(): Promise<void>;
}

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
  metricsRegistry,
  kafka,
}: WebhookDispatcherOptions): Promise<WebhookDispatcher> => {
  const metrics = createDispatcherMetrics(db, metricsRegistry);
  const stopping = new AbortController();
  const sleepers = new Set<() => void>();
  const wakeSenders = (): void => {
    for (const wake of sleepers) wake();
  };
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  const deps = { db, eventStore, clock, send: createWebhookSender(allowInsecure), retryScale, logger };
  const runSender = async (): Promise<void> => {
    while (!stopping.signal.aborted) {
      try {
        const outcome = await attemptDueDelivery(deps, stopping.signal);
        if (outcome) metrics.attempts.inc({ outcome });
        else await sleep(IDLE_POLL_MS);
      } catch (error) {
        if (stopping.signal.aborted) return;
        logger.error({ err: error }, 'webhook delivery failed to be recorded; retrying');
        await sleep(IDLE_POLL_MS);
      }
    }
  };

  // Once a batch that recorded deliveries has committed, they are due at once; the many batches that record
  // none (every farm and policy event passes the recorder) wake nobody.
  let recordedSinceWake = false;
  const recorder = await startProjector({
    eventStore,
    db,
    projections: [
      deliveryRecorder(eventStore, clock, {
        breachesFromLog: !kafka,
        onBreachRecorded: () => {
          recordedSinceWake = true;
        },
      }),
    ],
    logger,
  });
  recorder.onAdvanced(() => {
    if (!recordedSinceWake) return;
    recordedSinceWake = false;
    wakeSenders();
  });
  const breachConsumer = kafka
    ? consumeBreachesFromKafka(kafka, {
        eventStore,
        db,
        clock,
        logger,
        stopping: stopping.signal,
        onRecorded: wakeSenders,
      })
    : undefined;
  const senders = Array.from({ length: SENDERS }, runSender);
  logger.info({ allowInsecure, retryScale, breachesFrom: kafka ? 'kafka' : 'log' }, 'webhook dispatcher started');
  return {
    stop: async () => {
      stopping.abort(new Error('webhook dispatcher stopping'));
      wakeSenders();
      await breachConsumer?.stop();
      await Promise.all(senders);
      await recorder.stop();
      logger.info('webhook dispatcher stopped');
    },
  };
};
