import { decodeEvent } from '@cropcover/application';
import { INTEGRATION_TOPICS, TriggerBreachMessage } from '@cropcover/contracts';
import type { EventStore, GlobalPosition } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import {
  type Clock,
  type ConsumerGroupMember,
  contextOfCarrier,
  type IncomingMessage,
  type KafkaClient,
  type Logger,
  pauseUnlessAborted,
  startSpan,
  traceCarrierOf,
} from '@cropcover/runtime';
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Kysely } from 'kysely';
import { type AuditGate, breachOrganization, type LoggedBreach, recordBreachDeliveries } from './breach-deliveries';
import { DELIVERY_RECORDER_NAME } from './delivery-recorder';

export const BREACH_CONSUMER_GROUP = 'cropcover-webhook-dispatcher';
const JOIN_BACKOFF_MS = 1_000;
const JOIN_MAX_BACKOFF_MS = 30_000;
/** How often a batch looks again for the positions the log reader notes as it passes the breaches. */
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
  /** Called once a batch that added deliveries has committed. */
  readonly onRecorded: () => void;
  readonly auditGate: AuditGate;
}

const parseMessage = (message: IncomingMessage): TriggerBreachMessage | undefined => {
  try {
    const parsed = TriggerBreachMessage.parse(JSON.parse(message.value ?? ''));
    return parsed.event_id === message.headers.ce_id ? parsed : undefined;
  } catch {
    return undefined;
  }
};

const positionOf = (row: { commit_position: string; prepare_position: string }): GlobalPosition => ({
  commit: BigInt(row.commit_position),
  prepare: BigInt(row.prepare_position),
});

const isAtOrPast = (a: GlobalPosition, b: GlobalPosition): boolean =>
  a.commit > b.commit || (a.commit === b.commit && a.prepare >= b.prepare);

const reached = async (db: Kysely<ReadModels>, position: GlobalPosition): Promise<boolean> => {
  const checkpoint = await db
    .selectFrom('projection_checkpoints')
    .select(['commit_position', 'prepare_position'])
    .where('name', '=', DELIVERY_RECORDER_NAME)
    .executeTakeFirst();
  return checkpoint !== undefined && isAtOrPast(positionOf(checkpoint), position);
};

/** The positions the log reader noted for these breaches; a breach it has not passed yet has none. */
const notedPositions = async (db: Kysely<ReadModels>, eventIds: readonly string[]) =>
  new Map(
    (
      await db
        .selectFrom('webhook_breach_positions')
        .select(['event_id', 'commit_position', 'prepare_position'])
        .where('event_id', 'in', eventIds)
        .execute()
    ).map((row) => [row.event_id, positionOf(row)]),
  );

/** The breach's position read from the log itself, for a breach the log reader passed before it noted
 *  positions. */
const positionInLog = async (eventStore: EventStore, message: TriggerBreachMessage): Promise<GlobalPosition> => {
  const [logged] = await eventStore.readStream(message.stream_id, { fromRevision: message.stream_revision, limit: 1 });
  // Published only after it was logged; a message the log does not hold is retried, never dropped.
  if (logged?.metadata.event_id !== message.event_id)
    throw new Error(`breach ${message.event_id} is not at ${message.stream_id}@${message.stream_revision}`);
  const event = decodeEvent(logged);
  if (event.type !== 'TriggerBreached')
    throw new Error(`${message.stream_id}@${message.stream_revision} is a ${event.type}, not a breach`);
  return logged.position;
};

/** A breach message with the consumer span it is processed in. */
interface ReceivedBreach {
  readonly message: TriggerBreachMessage;
  readonly span: Span;
}

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
  { eventStore, db, clock, logger, stopping, onRecorded, auditGate }: KafkaBreachConsumerDeps,
): ConsumerGroupMember => {
  /** Where each breach of the batch sits in the log, as the log reader noted it once it had passed it
   *  (its targets then include every subscription created before it). One query a poll for the whole
   *  batch while the log reader catches up. */
  const positionsOf = async (messages: readonly TriggerBreachMessage[]): Promise<Map<string, GlobalPosition>> => {
    // Each breach is in the log before it is published, so at or before the head read now.
    const head = await eventStore.headPosition();
    const positions = new Map<string, GlobalPosition>();
    for (let passedHead = head === 'start'; ; ) {
      const missing = messages.filter(({ event_id }) => !positions.has(event_id));
      for (const [eventId, position] of await notedPositions(
        db,
        missing.map(({ event_id }) => event_id),
      ))
        positions.set(eventId, position);
      if (positions.size === messages.length) return positions;
      if (passedHead) {
        // Passed, yet not noted: passed before positions were noted (an upgrade). Read from the log.
        for (const message of missing)
          if (!positions.has(message.event_id))
            positions.set(message.event_id, await positionInLog(eventStore, message));
        return positions;
      }
      passedHead = head === 'start' || (await reached(db, head));
      if (!passedHead) {
        stopping.throwIfAborted();
        await pauseUnlessAborted(TARGETS_POLL_MS, stopping);
      }
    }
  };

  /** The breaches as the log holds them: their positions order them against the subscription events. */
  const loggedBreaches = async (received: readonly ReceivedBreach[]): Promise<LoggedBreach[]> => {
    const positions = await positionsOf(received.map(({ message }) => message));
    return Promise.all(
      received.map(async ({ message, span }) => ({
        eventId: message.event_id,
        position: positions.get(message.event_id) as GlobalPosition,
        organizationId: await breachOrganization(eventStore, message.data),
        breach: message.data,
        // The consumer span's, a child of the publisher's send span named by the message's `traceparent`.
        trace: traceCarrierOf(trace.setSpan(context.active(), span)),
      })),
    );
  };

  /** Parses the batch's breach messages, once each (a batch may hold a message twice), each in a consumer
   *  span of its own continuing the publisher's trace. */
  const receive = (messages: readonly IncomingMessage[]): ReceivedBreach[] => {
    const received = new Map<string, ReceivedBreach>();
    for (const message of messages) {
      const parsed = parseMessage(message);
      if (!parsed) {
        // Not a breach message of the contract: it can never be recorded, and blocking the partition on
        // it would hold back every breach after it.
        logger.error(
          { topic: message.topic, partition: message.partition, offset: message.offset, ce_id: message.headers.ce_id },
          'skipping a message that is not a TriggerBreachMessage',
        );
        continue;
      }
      if (received.has(parsed.event_id)) continue;
      const span = startSpan(
        `process ${message.topic}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'kafka',
            'messaging.operation.type': 'process',
            'messaging.destination.name': message.topic,
            'messaging.destination.partition.id': String(message.partition),
            'messaging.kafka.offset': Number(message.offset),
            'messaging.message.id': parsed.event_id,
            'messaging.batch.message_count': messages.length,
          },
        },
        contextOfCarrier(message.headers),
      );
      received.set(parsed.event_id, { message: parsed, span });
    }
    return [...received.values()];
  };

  /** Records a partition's batch: every breach's deliveries in one statement, so one commit. The batch's
   *  offsets are committed after it resolves; a batch handed again records nothing twice. */
  const onBatch = async (messages: readonly IncomingMessage[]): Promise<void> => {
    const received = receive(messages);
    if (received.length === 0) return;
    try {
      const added = await recordBreachDeliveries(db, await loggedBreaches(received), clock.now(), auditGate);
      if (added > 0) onRecorded();
    } catch (error) {
      for (const { span } of received) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      for (const { span } of received) span.end();
    }
  };

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
          onBatch,
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
