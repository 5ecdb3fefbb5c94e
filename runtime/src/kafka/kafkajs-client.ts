import { type IHeaders, Kafka, type LogEntry, logLevel, Partitioners } from 'kafkajs';
import type { Logger } from '../logger';
import type { IncomingMessage, KafkaClient, KafkaProducer } from './kafka-client';

// The only file that imports kafkajs (SPEC §9: keep the client swappable).

export interface KafkajsClientOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly logger: Logger;
}

// kafkajs retries a failing connection or request with exponential backoff (300 ms doubling, up to 3 s),
// about 8 s in all. Its idempotent producer would by default retry forever, which would also block a
// graceful stop while the broker is down; a bounded send lets the caller decide (the publisher retries
// the batch from its checkpoint).
const RETRY = { retries: 5, initialRetryTime: 300, maxRetryTime: 3_000 };

const GROUP_SESSION_TIMEOUT_MS = 6_000;
const GROUP_HEARTBEAT_MS = 1_000;

const logTo =
  (logger: Logger) =>
  () =>
  ({ namespace, level, log }: LogEntry): void => {
    const { message, ...extra } = log;
    const fields = { kafka: namespace, ...extra };
    // One level down: kafkajs reports every failed attempt it retries by itself, and a failure that
    // matters reaches our code as a rejected call, which the caller logs.
    if (level === logLevel.ERROR) logger.warn(fields, message);
    else if (level === logLevel.WARN) logger.info(fields, message);
    else logger.debug(fields, message);
  };

const headerText = (headers: IHeaders | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers ?? {}).flatMap(([name, value]) => {
      const first = Array.isArray(value) ? value[0] : value;
      return first === undefined ? [] : [[name, first.toString()]];
    }),
  );

export const createKafkajsClient = ({ brokers, clientId, logger }: KafkajsClientOptions): KafkaClient => {
  const kafka = new Kafka({
    clientId,
    brokers: [...brokers],
    connectionTimeout: 3_000,
    retry: RETRY,
    logLevel: logLevel.WARN,
    logCreator: logTo(logger),
  });

  // No retries and a short connection timeout: a readiness probe answers within its own timeout, and
  // must not leave attempts running behind it.
  const probe = new Kafka({
    clientId,
    brokers: [...brokers],
    connectionTimeout: 1_000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });

  return {
    connectProducer: async (): Promise<KafkaProducer> => {
      const producer = kafka.producer({
        idempotent: true,
        // One request in flight per broker: a retried request can then never overtake a later one.
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: RETRY,
      });
      await producer.connect();
      return {
        send: async (batches) => {
          await producer.sendBatch({
            acks: -1,
            topicMessages: batches.map(({ topic, messages }) => ({
              topic,
              messages: messages.map(({ key, value, headers }) => ({ key, value, headers: { ...headers } })),
            })),
          });
        },
        disconnect: () => producer.disconnect(),
      };
    },

    ensureTopics: async (topics) => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const existing = new Set(await admin.listTopics());
        const missing = topics.filter((topic) => !existing.has(topic.name));
        if (missing.length === 0) return;
        // createTopics answers false, not an error, when another process created a topic meanwhile.
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map(({ name, partitions }) => ({ topic: name, numPartitions: partitions })),
        });
      } finally {
        await admin.disconnect();
      }
    },

    joinConsumerGroup: async ({ groupId, topics, fromBeginning, partitionsAtOnce = 1, onMessage }) => {
      const consumer = kafka.consumer({
        groupId,
        allowAutoTopicCreation: false,
        // A member that died (SIGKILL, lost host) holds its partitions until its session times out, and a
        // restarted one waits for that: the broker's minimum by default (6 s), not kafkajs' 30 s.
        sessionTimeout: GROUP_SESSION_TIMEOUT_MS,
        heartbeatInterval: GROUP_HEARTBEAT_MS,
        rebalanceTimeout: GROUP_SESSION_TIMEOUT_MS,
      });
      await consumer.connect();
      await consumer.subscribe({ topics: [...topics], fromBeginning });
      await consumer.run({
        partitionsConsumedConcurrently: partitionsAtOnce,
        eachMessage: async ({ topic, partition, message }) => {
          const incoming: IncomingMessage = {
            topic,
            partition,
            offset: message.offset,
            key: message.key?.toString() ?? null,
            value: message.value?.toString() ?? null,
            headers: headerText(message.headers),
          };
          await onMessage(incoming);
        },
      });
      return { stop: () => consumer.disconnect() };
    },

    describeCluster: async () => {
      const admin = probe.admin();
      await admin.connect();
      try {
        await admin.describeCluster();
      } finally {
        await admin.disconnect();
      }
    },
  };
};
