// The Kafka port: what CropCover needs from a broker, in our own terms, so the client library behind
// it (@platformatic/kafka) can be swapped without touching publisher or consumers.

export interface OutgoingMessage {
  readonly key: string;
  /** JSON text. */
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface TopicBatch {
  readonly topic: string;
  readonly messages: readonly OutgoingMessage[];
}

export interface KafkaProducer {
  /** Resolves once every in-sync replica acknowledged every message; rejects after the client's retries. */
  send(batches: readonly TopicBatch[]): Promise<void>;
  disconnect(): Promise<void>;
}

export interface IncomingMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

export interface ConsumerGroupOptions {
  readonly groupId: string;
  /** Static membership (KIP-345): a member restarted under the same id takes its predecessor's place and
   *  partitions without a rebalance. Unique per member of the group, stable across its restarts. Unset: a
   *  dynamic member, which a restart replaces only after the dead one's session timed out. */
  readonly groupInstanceId?: string;
  readonly topics: readonly string[];
  /** Where a group without committed offsets starts: the oldest message, or only new ones. */
  readonly fromBeginning: boolean;
  /** Partitions whose batches are handled at the same time (default 1); each partition stays in order. */
  readonly partitionsAtOnce?: number;
  /** Called with the messages fetched for one partition, in offset order, one batch of a partition at a
   *  time; the batch's offsets are committed after it resolves. A rejection hands the same batch again
   *  (redelivered whole: the handler must tolerate messages it has already handled). */
  readonly onBatch: (messages: readonly IncomingMessage[]) => Promise<void>;
}

export interface ConsumerGroupMember {
  /** Leaves the group after the batch in hand, if any. */
  stop(): Promise<void>;
}

export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
}

export interface KafkaClient {
  connectProducer(): Promise<KafkaProducer>;
  /** Creates the topics that do not exist yet; existing ones are left as they are. */
  ensureTopics(topics: readonly TopicSpec[]): Promise<void>;
  joinConsumerGroup(options: ConsumerGroupOptions): Promise<ConsumerGroupMember>;
  /** Resolves when a broker describes the cluster; rejects at the first failure, without retrying. */
  describeCluster(): Promise<void>;
}
