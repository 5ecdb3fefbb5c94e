import type { ReadableSpan } from '@opentelemetry/sdk-trace';

export type { ReadableSpan };

export interface SpansInMemory {
  /** Every span ended so far. */
  finished(): readonly ReadableSpan[];
  stop(): Promise<void>;
}

/** Tracing on, as with an OTLP endpoint, but each span kept in memory as soon as it ends. The SDK is
 *  imported here, not at the top, so the suites that import this folder for other helpers do not load it. */
export const recordSpansInMemory = async (): Promise<SpansInMemory> => {
  const { InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace');
  const { registerTracerProvider } = await import('../tracing/tracer-provider');
  const exporter = new InMemorySpanExporter();
  const tracing = registerTracerProvider(
    { serviceName: 'cropcover-test', sampler: 'parentbased_always_on', samplerRatio: 1 },
    new SimpleSpanProcessor({ exporter }),
  );
  return { finished: () => exporter.getFinishedSpans(), stop: tracing.shutdown };
};
