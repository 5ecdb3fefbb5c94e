import { type Attributes, context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { EventMetadata, EventStore, NewEvent } from './port';

// Every append is a span, and the events it writes carry that span's W3C trace context in their
// metadata: whoever reads an event later (a projection batch, the Kafka publisher, the webhook
// dispatcher) can continue or link to the trace of the request that caused it. With tracing off the
// span is the API's no-op and the metadata is written as before.

const withTraceContext = (metadata: EventMetadata): EventMetadata => {
  const carrier: { traceparent?: string; tracestate?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...metadata, ...carrier } : metadata;
};

const stamped = (events: readonly NewEvent[]): NewEvent[] =>
  events.map((event) => ({ ...event, metadata: withTraceContext(event.metadata) }));

const inAppendSpan = <Result>(attributes: Attributes, write: () => Promise<Result>): Promise<Result> =>
  trace.getTracer('cropcover').startActiveSpan('append', { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await write();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });

export const withTracedAppends = (store: EventStore): EventStore => ({
  ...store,
  append: (streamId, events, expected) =>
    inAppendSpan({ 'cropcover.stream_id': streamId, 'cropcover.event_count': events.length }, () =>
      store.append(streamId, stamped(events), expected),
    ),
  appendToStreams: (appends) =>
    inAppendSpan(
      {
        'cropcover.stream_id': appends.map((append) => append.streamId),
        'cropcover.event_count': appends.reduce((count, append) => count + append.events.length, 0),
      },
      () => store.appendToStreams(appends.map((append) => ({ ...append, events: stamped(append.events) }))),
    ),
});
