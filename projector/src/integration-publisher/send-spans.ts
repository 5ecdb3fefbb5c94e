import { contextOfCarrier, startSpan, traceCarrierOf } from '@cropcover/runtime';
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RoutedMessage } from './integration-messages';

// One producer span per message of a traced event, a child of the append that wrote the event, so the
// trace of the request goes on through Kafka: the message carries the span's context in `traceparent`.
// Messages of untraced events (tracing off, or written before it) get no span and no header.

export interface TracedSends {
  /** The same messages, a traced one's `traceparent` now naming its send span. */
  readonly messages: readonly RoutedMessage[];
  /** Ends every send span, as failed when the batch was not acknowledged. */
  end(error?: unknown): void;
}

const traceSend = ({ topic, message }: RoutedMessage): { routed: RoutedMessage; span: Span | undefined } => {
  const { traceparent, tracestate } = message.headers;
  if (!traceparent) return { routed: { topic, message }, span: undefined };
  const span = startSpan(
    `send ${topic}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.destination.name': topic,
        'messaging.message.id': message.headers.ce_id ?? '',
        'messaging.kafka.message.key': message.key,
      },
    },
    contextOfCarrier({ traceparent, ...(tracestate ? { tracestate } : {}) }),
  );
  const headers = { ...message.headers, ...traceCarrierOf(trace.setSpan(ROOT_CONTEXT, span)) };
  return { routed: { topic, message: { ...message, headers } }, span };
};

export const traceSends = (routed: readonly RoutedMessage[]): TracedSends => {
  const traced = routed.map(traceSend);
  return {
    messages: traced.map((sent) => sent.routed),
    end: (error) => {
      for (const { span } of traced) {
        if (!span) continue;
        if (error !== undefined) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      }
    },
  };
};
