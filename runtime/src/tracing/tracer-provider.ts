import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TraceSampler, TracingConfig } from '../config';
import type { Tracing } from './tracing';

// The one place the OpenTelemetry SDK is set up, loaded only when tracing is on (`./tracing.ts`). Our
// code makes its spans by hand through the API (`./spans.ts`); without a registered provider those calls
// are the API's no-ops, which is what "off" means. No auto-instrumentation: it patches every module it
// knows at startup (pg, express, http, …) and adds spans to every query, while the spans worth having
// here are the few that follow a command across processes.

const samplerOf = (name: TraceSampler, ratio: number): Sampler => {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
};

/** Registers a provider sending spans to `spanProcessor`, the W3C trace-context propagator and the
 *  AsyncLocalStorage context manager as the API's globals. Tests pass an in-memory exporter's processor. */
export const registerTracerProvider = (
  config: Pick<TracingConfig, 'serviceName' | 'sampler' | 'samplerRatio'>,
  spanProcessor: SpanProcessor,
): Tracing => {
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(detectResources({ detectors: [envDetector] }))
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName })),
    sampler: samplerOf(config.sampler, config.samplerRatio),
    spanProcessors: [spanProcessor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
};

/** Spans batched to the OTLP/HTTP endpoint of the `OTEL_*` variables (the exporter reads them). */
export const registerOtlpTracing = (config: TracingConfig): Tracing =>
  registerTracerProvider(config, new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }));
