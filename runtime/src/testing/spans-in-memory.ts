import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { registerTracerProvider } from '../tracing/tracer-provider';

export type { ReadableSpan };

export interface SpansInMemory {
  /** Every span ended so far. */
  finished(): readonly ReadableSpan[];
  stop(): Promise<void>;
}

/** Tracing on, as with an OTLP endpoint, but each span kept in memory as soon as it ends. */
export const recordSpansInMemory = (): SpansInMemory => {
  const exporter = new InMemorySpanExporter();
  const tracing = registerTracerProvider(
    { serviceName: 'cropcover-test', sampler: 'parentbased_always_on', samplerRatio: 1 },
    new SimpleSpanProcessor({ exporter }),
  );
  return { finished: () => exporter.getFinishedSpans(), stop: tracing.shutdown };
};
