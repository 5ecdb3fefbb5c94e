import type {
  IntegrationMessageHeaders,
  IntegrationTopicNames,
  ProgrammeStreamKind,
  RegistryAggregateType,
} from '@cropcover/contracts';
import {
  farmerStream,
  farmStream,
  indexSourceStream,
  policyStream,
  programmeStream,
  reinsuranceStream,
} from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { OutgoingMessage } from '@cropcover/runtime';

// Which topics an event of the log goes to, and the message it becomes there (the shapes are the
// contracts in contracts/src/integration). Streams other than policies, farms, farmers, index sources,
// programmes and their reinsurance (shareable ids, webhook subscriptions, …) are internal and published
// nowhere.

export interface RoutedMessage {
  readonly topic: string;
  readonly message: OutgoingMessage;
}

// A traced event's message starts with the trace context of its append; the publisher replaces it with
// its own send span's, a child of that append.
const headersOf = ({ streamId, type, metadata }: RecordedEvent): IntegrationMessageHeaders => ({
  ce_id: metadata.event_id,
  ce_type: `cropcover.${type}`,
  ce_source: `urn:cropcover:${streamId}`,
  ce_time: metadata.occurred_at,
  ce_specversion: '1.0',
  'content-type': 'application/json',
  ...(metadata.traceparent ? { traceparent: metadata.traceparent } : {}),
  ...(metadata.tracestate ? { tracestate: metadata.tracestate } : {}),
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

/** The farm, farmer or index source a registry stream holds; undefined for any other stream. */
const registryAggregateOf = (
  streamId: string,
): { readonly type: RegistryAggregateType; readonly id: string } | undefined => {
  const farmId = farmStream.idOf(streamId);
  if (farmId) return { type: 'farm', id: farmId };
  const farmerId = farmerStream.idOf(streamId);
  if (farmerId) return { type: 'farmer', id: farmerId };
  const sourceId = indexSourceStream.idOf(streamId);
  return sourceId ? { type: 'index_source', id: sourceId } : undefined;
};

/** The programme a programme or reinsurance stream belongs to; undefined for any other stream. */
const programmeOf = (streamId: string): { readonly kind: ProgrammeStreamKind; readonly id: string } | undefined => {
  const programmeId = programmeStream.idOf(streamId);
  if (programmeId) return { kind: 'programme', id: programmeId };
  const reinsuredId = reinsuranceStream.idOf(streamId);
  return reinsuredId ? { kind: 'reinsurance', id: reinsuredId } : undefined;
};

export const routeToTopics = (event: RecordedEvent, topics: IntegrationTopicNames): RoutedMessage[] => {
  const policyId = policyStream.idOf(event.streamId);
  if (policyId) {
    const value = { ...loggedEventOf(event), policy_id: policyId };
    const messages = [routed(topics.policyEvents, policyId, event, value)];
    if (event.type === 'TriggerBreached') messages.push(routed(topics.triggerBreaches, policyId, event, value));
    return messages;
  }
  const programme = programmeOf(event.streamId);
  if (programme) {
    const value = { ...loggedEventOf(event), programme_id: programme.id, stream_kind: programme.kind };
    return [routed(topics.programmeEvents, programme.id, event, value)];
  }
  const aggregate = registryAggregateOf(event.streamId);
  if (!aggregate) return [];
  const value = { ...loggedEventOf(event), aggregate_type: aggregate.type, aggregate_id: aggregate.id };
  return [routed(topics.registryEvents, aggregate.id, event, value)];
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
