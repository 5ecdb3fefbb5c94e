import type { TracingConfig } from '../config';

export interface Tracing {
  /** Exports the spans still queued and unregisters the provider. */
  shutdown(): Promise<void>;
}

/** Tracing as configured: spans exported over OTLP, or nothing registered at all when no endpoint is set
 *  (or OTEL_SDK_DISABLED). The SDK and exporter are imported only when on: loading them costs every
 *  process start, a CLI included, the better part of a second on a busy machine. */
export const startTracing = async (config: TracingConfig): Promise<Tracing> => {
  if (!config.enabled) return { shutdown: async () => {} };
  const { registerOtlpTracing } = await import('./tracer-provider');
  return registerOtlpTracing(config);
};
