import {
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

// How our code makes spans and carries their context between processes. Everything here goes through
// the OpenTelemetry API, so with tracing off each call is the API's no-op and carriers stay empty.

/** A span's context as W3C Trace Context fields: what event metadata, Kafka headers and webhook requests
 *  carry. Both absent when nothing is traced. */
export interface TraceCarrier {
  readonly traceparent?: string;
  readonly tracestate?: string;
}

// Looked up per span rather than once: a test that registers a provider of its own must get it.
const cropcoverTracer = (): Tracer => trace.getTracer('cropcover');

/** The context of `from` (the active one by default) written as W3C fields; {} when it holds no span. */
export const traceCarrierOf = (from: Context = context.active()): TraceCarrier => {
  const carrier: { traceparent?: string; tracestate?: string } = {};
  propagation.inject(from, carrier);
  return carrier;
};

/** The remote span a carrier names, as a parent context; the root context when it names none. */
export const contextOfCarrier = (carrier: TraceCarrier): Context => propagation.extract(ROOT_CONTEXT, carrier);

/** A link to the span a carrier names, for a span with many parents (a batch); undefined without one. */
export const linkToCarrier = (carrier: TraceCarrier): Link | undefined => {
  const spanContext = trace.getSpanContext(contextOfCarrier(carrier));
  return spanContext ? { context: spanContext } : undefined;
};

/** Runs `work` inside a new span, the active one while it runs, as a child of `parent` (the active context
 *  by default). A failure marks the span as an error and is thrown on. */
export const inSpan = <T>(
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> =>
  cropcoverTracer().startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });

/** Starts a span the caller ends, for work whose end is an event rather than a promise. */
export const startSpan = (name: string, options: SpanOptions, parent: Context = context.active()): Span =>
  cropcoverTracer().startSpan(name, options, parent);
