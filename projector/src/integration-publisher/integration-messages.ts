import type { IntegrationMessageHeaders, IntegrationTopicNames, RegistryAggregateType } from '@cropcover/contracts';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { OutgoingMessage } from '@cropcover/runtime';

// Which topics an event of the log goes to, and the message it becomes there (the shapes are the
// contracts in contracts/src/integration). Streams other than policies, farms and farmers (shareable
// ids, webhook subscriptions, …) are internal and published nowhere.

export interface RoutedMessage {
  readonly topic: string;
  readonly message: OutgoingMessage;
}

const POLICY_STREAM = /^policy-(.+)$/;
const REGISTRY_STREAM = /^(farm|farmer)-(.+)$/;

const headersOf = (event: RecordedEvent): IntegrationMessageHeaders => ({
  ce_id: event.metadata.event_id,
  ce_type: `cropcover.${event.type}`,
  ce_source: `urn:cropcover:${event.streamId}`,
  ce_time: event.metadata.occurred_at,
  ce_specversion: '1.0',
  'content-type': 'application/json',
});

const loggedEventOf = (event: RecordedEvent) => ({
  event_id: event.metadata.event_id,
  stream_id: event.streamId,
  stream_revision: event.revision,
  occurred_at: event.metadata.occurred_at,
  metadata: event.metadata,
  // The log holds payloads that passed these schemas when they were decided (upcast to today's shape
  // on read); they are not parsed again here, so a publisher never stalls on one odd old event.
  type: event.type,
  data: event.data,
});

const routed = (topic: string, key: string, event: RecordedEvent, value: object): RoutedMessage => ({
  topic,
  message: { key, value: JSON.stringify(value), headers: headersOf(event) },
});

export const routeToTopics = (event: RecordedEvent, topics: IntegrationTopicNames): RoutedMessage[] => {
  const policyId = POLICY_STREAM.exec(event.streamId)?.[1];
  if (policyId) {
    const value = { ...loggedEventOf(event), policy_id: policyId };
    const messages = [routed(topics.policyEvents, policyId, event, value)];
    if (event.type === 'TriggerBreached') messages.push(routed(topics.triggerBreaches, policyId, event, value));
    return messages;
  }
  const registry = REGISTRY_STREAM.exec(event.streamId);
  const aggregateId = registry?.[2];
  if (registry && aggregateId) {
    const aggregateType: RegistryAggregateType = registry[1] === 'farm' ? 'farm' : 'farmer';
    const value = { ...loggedEventOf(event), aggregate_type: aggregateType, aggregate_id: aggregateId };
    return [routed(topics.registryEvents, aggregateId, event, value)];
  }
  return [];
};

/** The messages of a batch grouped by topic, in log order within each topic. */
export const groupByTopic = (routedMessages: readonly RoutedMessage[]): Map<string, OutgoingMessage[]> => {
  const byTopic = new Map<string, OutgoingMessage[]>();
  for (const { topic, message } of routedMessages) {
    const messages = byTopic.get(topic) ?? [];
    messages.push(message);
    byTopic.set(topic, messages);
  }
  return byTopic;
};
