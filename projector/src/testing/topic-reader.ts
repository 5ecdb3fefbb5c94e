import { randomUUID } from 'node:crypto';
import type { IncomingMessage, KafkaClient } from '@cropcover/runtime';
import { expect, vi } from 'vitest';

// A downstream consumer for tests: a consumer group of its own (so it reads every message of the topics
// from the beginning) that keeps what it receives, in arrival order.

export interface TopicReader {
  readonly messages: readonly IncomingMessage[];
  /** Waits until `check` passes on the messages received so far, and returns them. */
  waitFor(check: (messages: readonly IncomingMessage[]) => void, timeoutMs?: number): Promise<IncomingMessage[]>;
  stop(): Promise<void>;
}

export const readTopics = async (kafka: KafkaClient, topics: readonly string[]): Promise<TopicReader> => {
  const messages: IncomingMessage[] = [];
  const member = await kafka.joinConsumerGroup({
    groupId: `test-reader-${randomUUID()}`,
    topics,
    fromBeginning: true,
    onBatch: async (batch) => {
      messages.push(...batch);
    },
  });
  return {
    messages,
    waitFor: (check, timeoutMs = 30_000) =>
      vi.waitFor(
        () => {
          check(messages);
          return [...messages];
        },
        { timeout: timeoutMs, interval: 100 },
      ),
    stop: () => member.stop(),
  };
};

/** Fails the wait until at least `count` messages arrived on `topic`. */
export const atLeast =
  (topic: string, count: number) =>
  (messages: readonly IncomingMessage[]): void => {
    expect(messages.filter((message) => message.topic === topic).length).toBeGreaterThanOrEqual(count);
  };
