import { decodeEvent } from '@cropcover/application';
import { INTEGRATION_TOPICS, TriggerBreachMessage } from '@cropcover/contracts';
import type { EventStore, GlobalPosition } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import {
  type Clock,
  type ConsumerGroupMember,
  contextOfCarrier,
  type IncomingMessage,
  inSpan,
  type KafkaClient,
  type Logger,
  pauseUnlessAborted,
  traceCarrierOf,
} from '@cropcover/runtime';
import { SpanKind } from '@opentelemetry/api';
import type { Kysely } from 'kysely';
import { breachOrganization, type LoggedBreach, recordBreachDeliveries } from './breach-deliveries';
import { DELIVERY_RECORDER_NAME } from './delivery-recorder';

export const BREACH_CONSUMER_GROUP = 'cropcover-webhook-dispatcher';
const JOIN_BACKOFF_MS = 1_000;
const JOIN_MAX_BACKOFF_MS = 30_000;
/** How often a breach waits for the subscription events before it in the log to be recorded. */
const TARGETS_POLL_MS = 50;

/** Where the dispatcher reads breaches when Kafka is configured. */
export interface KafkaBreachSource {
  readonly client: KafkaClient;
  /** KAFKA_TOPIC_PARTITIONS, for the topic when the dispatcher is first to need it. */
  readonly partitions: number;
  /** Tests consume topics and groups of their own; production uses the defaults. */
  readonly topic?: string;
  readonly groupId?: string;
  /** This dispatcher's static member id (KAFKA_GROUP_INSTANCE_ID); unset: a dynamic member. */
  readonly groupInstanceId?: string;
}

export interface KafkaBreachConsumerDeps {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Aborted when the dispatcher stops: a message still waiting is then left uncommitted, and redelivered. */
  readonly stopping: AbortSignal;
  /** Called once a breach's deliveries have committed. */
  readonly onRecorded: () => void;
}

const parseMessage = (message: IncomingMessage): TriggerBreachMessage | undefined => {
  try {
    const parsed = TriggerBreachMessage.parse(JSON.parse(message.value ?? ''));
    return parsed.event_id === message.headers.ce_id ? parsed : undefined;
  } catch {
    return undefined;
  }
};

const alreadyRecorded = async (db: Kysely<ReadModels>, eventId: string): Promise<boolean> =>
  (await db.selectFrom('webhook_deliveries').select('event_id').where('event_id', '=', eventId).executeTakeFirst()) !==
  undefined;

const reached = async (db: Kysely<ReadModels>, position: GlobalPosition): Promise<boolean> => {
  const checkpoint = await db
    .selectFrom('projection_checkpoints')
    .select(['commit_position', 'prepare_position'])
    .where('name', '=', DELIVERY_RECORDER_NAME)
    .executeTakeFirst();
  if (!checkpoint) return false;
  const commit = BigInt(checkpoint.commit_position);
  return (
    commit > position.commit || (commit === position.commit && BigInt(checkpoint.prepare_position) >= position.prepare)
  );
};

/** The breach as the log holds it: its position orders it against the subscription events. */
const loggedBreach = async (eventStore: EventStore, message: TriggerBreachMessage): Promise<LoggedBreach> => {
  const [logged] = await eventStore.readStream(message.stream_id, { fromRevision: message.stream_revision, limit: 1 });
  // Published only after it was logged; a message the log does not hold is retried, never dropped.
  if (logged?.metadata.event_id !== message.event_id)
    throw new Error(`breach ${message.event_id} is not at ${message.stream_id}@${message.stream_revision}`);
  const event = decodeEvent(logged);
  if (event.type !== 'TriggerBreached')
    throw new Error(`${message.stream_id}@${message.stream_revision} is a ${event.type}, not a breach`);
  return {
    eventId: message.event_id,
    position: logged.position,
    organizationId: await breachOrganization(eventStore, event.data),
    breach: event.data,
    // The consumer span's, a child of the publisher's send span named by the message's `traceparent`.
    trace: traceCarrierOf(),
  };
};

/**
 * Consumes `cropcover.trigger-breaches.v1` as a consumer group: each breach becomes one pending delivery
 * per subscription of the policy's organization created before it in the log and still active (the
 * targets come from the log, in order, through the delivery recorder; a breach waits until the recorder
 * has passed it). The offset is committed only after the deliveries' transaction committed: at least
 * once, and a message seen again (same `ce_id`) records nothing new. Joining is retried with backoff, so
 * the dispatcher starts while Kafka is down.
 */
export const consumeBreachesFromKafka = (
  {
    client,
    partitions,
    topic = INTEGRATION_TOPICS.triggerBreaches,
    groupId = BREACH_CONSUMER_GROUP,
    groupInstanceId,
  }: KafkaBreachSource,
  { eventStore, db, clock, logger, stopping, onRecorded }: KafkaBreachConsumerDeps,
): ConsumerGroupMember => {
  const waitForTargets = async (position: GlobalPosition): Promise<void> => {
    while (!(await reached(db, position))) {
      stopping.throwIfAborted();
      await pauseUnlessAborted(TARGETS_POLL_MS, stopping);
    }
  };

  const recordMessage = async (message: IncomingMessage): Promise<void> => {
    const parsed = parseMessage(message);
    if (!parsed) {
      // Not a breach message of the contract: it can never be recorded, and blocking the partition on it
      // would hold back every breach after it.
      logger.error(
        { topic: message.topic, partition: message.partition, offset: message.offset, ce_id: message.headers.ce_id },
        'skipping a message that is not a TriggerBreachMessage',
      );
      return;
    }
    if (await alreadyRecorded(db, parsed.event_id)) return;
    const breach = await loggedBreach(eventStore, parsed);
    await waitForTargets(breach.position);
    await db.transaction().execute((trx) => recordBreachDeliveries(trx, breach, clock.now()));
    onRecorded();
  };

  const onMessage = (message: IncomingMessage): Promise<void> =>
    inSpan(
      `process ${message.topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.destination.name': message.topic,
          'messaging.destination.partition.id': String(message.partition),
          'messaging.kafka.offset': Number(message.offset),
          ...(message.headers.ce_id ? { 'messaging.message.id': message.headers.ce_id } : {}),
        },
      },
      () => recordMessage(message),
      contextOfCarrier(message.headers),
    );

  const join = async (): Promise<ConsumerGroupMember | undefined> => {
    for (let failures = 0; !stopping.aborted; failures += 1) {
      try {
        // The publisher creates the topic on its first publish; the dispatcher may well start first.
        await client.ensureTopics([{ name: topic, partitions }]);
        // A new group starts from the oldest breach kept: what was recorded already is not recorded again.
        const member = await client.joinConsumerGroup({
          groupId,
          // A restarted dispatcher takes its partitions back at once (issue 11, fault 4).
          ...(groupInstanceId === undefined ? {} : { groupInstanceId }),
          topics: [topic],
          fromBeginning: true,
          // Breaches of one policy share a partition (keyed by policy id), so they stay in order.
          partitionsAtOnce: partitions,
          onMessage,
        });
        logger.info({ topic, groupId, groupInstanceId }, 'consuming breaches from Kafka');
        return member;
      } catch (error) {
        const delayMs = Math.min(JOIN_MAX_BACKOFF_MS, JOIN_BACKOFF_MS * 2 ** failures);
        logger.warn({ err: error, topic, groupId, delayMs }, 'cannot join the breach consumer group yet; retrying');
        await pauseUnlessAborted(delayMs, stopping);
      }
    }
    return undefined;
  };

  const joined = join();
  return {
    stop: async () => {
      await (await joined)?.stop();
    },
  };
};
