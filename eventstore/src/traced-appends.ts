import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { EventMetadata, EventStore } from './port';

// Every append is a span, and the events it writes carry that span's W3C trace context in their
// metadata: whoever reads an event later (a projection batch, the Kafka publisher, the webhook
// dispatcher) can continue or link to the trace of the request that caused it. With tracing off the
// span is the API's no-op and the metadata is written as before.

const withTraceContext = (metadata: EventMetadata): EventMetadata => {
  const carrier: { traceparent?: string; tracestate?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...metadata, ...carrier } : metadata;
};

export const withTracedAppends = (store: EventStore): EventStore => ({
  ...store,
  append: (streamId, events, expected) =>
    trace.getTracer('cropcover').startActiveSpan(
      'append',
      {
        kind: SpanKind.CLIENT,
        attributes: { 'cropcover.stream_id': streamId, 'cropcover.event_count': events.length },
      },
      async (span) => {
        try {
          return await store.append(
            streamId,
            events.map((event) => ({ ...event, metadata: withTraceContext(event.metadata) })),
            expected,
          );
        } catch (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    ),
});
