import {
  Admin,
  type BaseOptions,
  Consumer,
  compatibilityPartitioner,
  type Message,
  type MessagesStream,
  MessagesStreamFallbackModes,
  MessagesStreamModes,
  Producer,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
import { pauseUnlessAborted } from '../abortable-pause';
import type { Logger } from '../logger';
import type { IncomingMessage, KafkaClient, KafkaProducer } from './kafka-client';

// The only file besides its test that imports @platformatic/kafka (SPEC §9: keep the client
// swappable). Chosen over kafkajs (unmaintained since 2023) because it implements static group
// membership (KIP-345): a restarted webhook dispatcher takes its old place in the group without waiting
// for a rebalance.

export interface PlatformaticClientOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly logger: Logger;
}

type ConsumedRecord = Message<string, string, string, string>;
type RecordStream = MessagesStream<string, string, string, string>;

// A failing connection or request is retried 5 times, 300 ms doubling up to 3 s (about 8 s in all).
// The idempotent producer would otherwise retry forever, which would also block a graceful stop while
// the broker is down; a bounded send lets the caller decide (the publisher retries from its checkpoint).
const RETRIES = 5;
const retryDelay = (_client: unknown, _operation: string, attempt: number): number =>
  Math.min(3_000, 300 * 2 ** (attempt - 1));

// A member that died holds its partitions until its session times out; a static member restarted under
// the same id takes them back at once, so the session only bounds how long a member that never comes
// back keeps them (6 s: the broker's minimum).
const GROUP_SESSION_TIMEOUT_MS = 6_000;
const GROUP_HEARTBEAT_MS = 1_000;

/** Messages fetched but not yet handled, before fetching pauses. */
const MAX_QUEUED_MESSAGES = 2_000;
/** Most messages of one partition handed to `onBatch` at once. */
const MAX_BATCH_MESSAGES = 500;
const HANDLING_BACKOFF_MS = 300;
const HANDLING_MAX_BACKOFF_MS = 10_000;
const RECONSUME_PAUSE_MS = 500;

const messageText = (message: ConsumedRecord): IncomingMessage => ({
  topic: message.topic,
  partition: message.partition,
  offset: message.offset.toString(),
  key: message.key ?? null,
  value: message.value ?? null,
  headers: Object.fromEntries(message.headers),
});

/** At most `size` holders at a time, served in order. */
const slots = (size: number) => {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    take: async (): Promise<void> => {
      if (free > 0) free -= 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give: (): void => {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
};

export const createPlatformaticClient = ({ brokers, clientId, logger }: PlatformaticClientOptions): KafkaClient => {
  const connection: BaseOptions = {
    clientId,
    bootstrapBrokers: [...brokers],
    connectTimeout: 3_000,
    retries: RETRIES,
    retryDelay,
  };
  // Failures the library reports as events, not as a rejected call (a failed rejoin): one level down,
  // since the call they belong to is retried and a lasting failure reaches the caller.
  const reportTo = (client: { on(event: 'error', listener: (error: Error) => void): unknown }) =>
    client.on('error', (error: Error) => logger.warn({ err: error, kafka: clientId }, 'Kafka client error'));

  const withAdmin = async <T>(options: BaseOptions, use: (admin: Admin) => Promise<T>): Promise<T> => {
    const admin = new Admin(options);
    reportTo(admin);
    try {
      return await use(admin);
    } finally {
      await admin.close();
    }
  };

  return {
    connectProducer: async (): Promise<KafkaProducer> => {
      const producer = new Producer({
        ...connection,
        // Sequence numbers per partition and one request in flight: a retried request is written once
        // and can never overtake a later one, so a key's revisions never go backwards.
        idempotent: true,
        acks: -1,
        autocreateTopics: false,
        // Java's murmur2 partitioning, as kafkajs' default: a policy's messages stay on the partition
        // they were on before the switch of client.
        partitioner: compatibilityPartitioner,
        serializers: stringSerializers,
      });
      reportTo(producer);
      // Fails here, as kafkajs' connect did, when no broker answers; the caller retries with a new one.
      try {
        await producer.metadata({ topics: [] });
      } catch (error) {
        await producer.close().catch(() => undefined);
        throw error;
      }
      return {
        send: async (batches) => {
          await producer.send({
            messages: batches.flatMap(({ topic, messages }) =>
              messages.map(({ key, value, headers }) => ({ topic, key, value, headers: { ...headers } })),
            ),
          });
        },
        disconnect: () => producer.close(),
      };
    },

    ensureTopics: (topics) =>
      withAdmin(connection, async (admin) => {
        const existing = new Set(await admin.listTopics());
        const missing = topics.filter((topic) => !existing.has(topic.name));
        for (const { name, partitions } of missing) {
          try {
            await admin.createTopics({ topics: [name], partitions, replicas: -1 });
          } catch (error) {
            // Another process created it meanwhile: that is what we wanted.
            if (!(await admin.listTopics()).includes(name)) throw error;
          }
        }
      }),

    joinConsumerGroup: async ({ groupId, groupInstanceId, topics, fromBeginning, partitionsAtOnce = 1, onBatch }) => {
      const consumer = new Consumer({
        ...connection,
        groupId,
        ...(groupInstanceId === undefined ? {} : { groupInstanceId }),
        sessionTimeout: GROUP_SESSION_TIMEOUT_MS,
        rebalanceTimeout: GROUP_SESSION_TIMEOUT_MS,
        heartbeatInterval: GROUP_HEARTBEAT_MS,
        autocommit: false,
        autocreateTopics: false,
        deserializers: stringDeserializers,
      });
      reportTo(consumer);
      /** Closes the stream, then leaves the group (the overload with a callback is the one typed for `force`). */
      const leave = (): Promise<void> =>
        new Promise((resolve, reject) => consumer.close(true, (error) => (error ? reject(error) : resolve())));
      const stopping = new AbortController();
      const consume = (): Promise<RecordStream> =>
        consumer.consume({
          topics: [...topics],
          mode: MessagesStreamModes.COMMITTED,
          fallbackMode: fromBeginning ? MessagesStreamFallbackModes.EARLIEST : MessagesStreamFallbackModes.LATEST,
          autocommit: false,
        });

      /** Hands one partition's batch to `onBatch` until it succeeds, then commits the offset after its last
       *  message; gives up only when `abandoned`. */
      const handle = async (batch: readonly ConsumedRecord[], abandoned: () => boolean): Promise<void> => {
        const incoming = batch.map(messageText);
        const first = incoming[0];
        const last = batch.at(-1);
        if (!first || !last) return;
        const where = { topic: first.topic, partition: first.partition, offset: first.offset, count: batch.length };
        for (let failures = 0; ; failures += 1) {
          if (abandoned()) return;
          try {
            await onBatch(incoming);
            break;
          } catch (error) {
            // Left uncommitted: whoever holds the partition next gets the batch again.
            if (abandoned()) return;
            const delayMs = Math.min(HANDLING_MAX_BACKOFF_MS, HANDLING_BACKOFF_MS * 2 ** failures);
            logger.warn({ err: error, ...where, delayMs }, 'handling a batch of Kafka messages failed; retrying it');
            await pauseUnlessAborted(delayMs, stopping.signal);
          }
        }
        try {
          // Commits the offset after `last`, which covers every message of the batch.
          await last.commit();
        } catch (error) {
          // The next commit on the partition covers it; if none comes, the batch is seen again.
          logger.warn({ err: error, ...where }, 'committing a Kafka offset failed');
        }
      };

      /** Hands the stream's messages to `onBatch`, each partition's in order and one batch of a partition at
       *  a time, until the stream ends; then waits for the batches in hand (messages not handed yet are left
       *  for the next stream). */
      const drain = (stream: RecordStream): Promise<Error | undefined> =>
        new Promise((resolve) => {
          const partitionsFree = slots(partitionsAtOnce);
          const waitingOf = new Map<string, ConsumedRecord[]>();
          const handling = new Map<string, Promise<void>>();
          let queued = 0;
          let ended = false;
          const abandoned = (): boolean => ended || stopping.signal.aborted;
          /** Runs while the partition has messages waiting; unregisters itself in the same step as it
           *  finds none left, so a message arriving later starts it again. */
          const handlePartition = async (partition: string, waiting: ConsumedRecord[]): Promise<void> => {
            try {
              // A fetch pushes its messages one after another: let the rest of it arrive first.
              await new Promise((next) => setImmediate(next));
              while (waiting.length > 0 && !abandoned()) {
                await partitionsFree.take();
                // Taken after the slot: a partition that waited for one hands everything that came meanwhile.
                const batch = waiting.splice(0, MAX_BATCH_MESSAGES);
                try {
                  await handle(batch, abandoned);
                } finally {
                  partitionsFree.give();
                  queued -= batch.length;
                  if (!ended && stream.isPaused() && queued < MAX_QUEUED_MESSAGES / 2) stream.resume();
                }
              }
            } finally {
              handling.delete(partition);
            }
          };
          stream.on('data', (message: ConsumedRecord) => {
            if (ended) return;
            const partition = `${message.topic}:${message.partition}`;
            const waiting = waitingOf.get(partition) ?? [];
            waitingOf.set(partition, waiting);
            waiting.push(message);
            queued += 1;
            if (queued >= MAX_QUEUED_MESSAGES) stream.pause();
            if (handling.has(partition)) return;
            handling.set(partition, handlePartition(partition, waiting));
          });
          const finish = (error?: Error): void => {
            if (ended) return;
            ended = true;
            void Promise.all(handling.values()).then(() => resolve(error));
          };
          stream.once('error', finish);
          stream.once('close', () => finish());
          stopping.signal.addEventListener('abort', () => finish(), { once: true });
        });

      let stream: RecordStream;
      // A stream destroyed by a failure has closed already, and would never call back a close().
      const closeStream = async (): Promise<void> => {
        if (!stream.destroyed) await stream.close().catch(() => undefined);
      };
      try {
        stream = await consume();
      } catch (error) {
        await leave().catch(() => undefined);
        throw error;
      }

      // A stream ends when fetching failed past its retries (the broker is down or restarting): a new one
      // starts from the committed offsets, and rejoins the group if the member was dropped meanwhile.
      const consuming = (async () => {
        while (!stopping.signal.aborted) {
          const error = await drain(stream);
          if (stopping.signal.aborted) break;
          await closeStream();
          logger.warn({ err: error, groupId, topics }, 'Kafka consumer stream ended; consuming again');
          // No backoff of our own: each attempt already spends the client's retries (about 8 s).
          for (;;) {
            await pauseUnlessAborted(RECONSUME_PAUSE_MS, stopping.signal);
            if (stopping.signal.aborted) return;
            try {
              stream = await consume();
              break;
            } catch (consumeError) {
              logger.warn({ err: consumeError, groupId, topics }, 'cannot consume from Kafka yet; retrying');
            }
          }
        }
      })();

      return {
        stop: async () => {
          stopping.abort();
          await consuming;
          await closeStream();
          // Leaves the group, so the partitions go to the remaining members at once. Without a broker it
          // cannot: the session then ends by itself.
          await leave().catch((error: unknown) =>
            logger.warn({ err: error, groupId }, 'could not leave the Kafka consumer group'),
          );
        },
      };
    },

    // No retries and a short timeout: a readiness probe answers within its own timeout, and must not
    // leave attempts running behind it.
    describeCluster: () =>
      withAdmin({ ...connection, connectTimeout: 1_000, timeout: 1_000, retries: 0 }, async (admin) => {
        await admin.metadata({ topics: [] });
      }),
  };
};
