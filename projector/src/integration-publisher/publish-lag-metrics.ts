import type { AllStreamStart, EventStore, GlobalPosition } from '@cropcover/eventstore';
import type { Logger } from '@cropcover/runtime';
import { Gauge, type Registry } from 'prom-client';
import { eventsBehind } from '../lag-metrics';

export const PUBLISH_LAG_EVENTS_METRIC = 'kafka_publish_lag_events';
export const PUBLISH_LAG_SECONDS_METRIC = 'kafka_publish_lag_seconds';

export interface PublishLagMetricsOptions {
  readonly registry: Registry;
  readonly eventStore: EventStore;
  readonly checkpoint: () => GlobalPosition | AllStreamStart;
  readonly logger: Logger;
}

/** The Kafka publisher's distance behind the log, measured when scraped. Returns their removal. */
export const registerPublishLagMetrics = ({
  registry,
  eventStore,
  checkpoint,
  logger,
}: PublishLagMetricsOptions): (() => void) => {
  // A failed scrape keeps the previous values rather than failing the whole /metrics response.
  const reportFailure = (error: unknown): void =>
    logger.warn({ err: error }, 'Kafka publish lag could not be measured');

  const lagEvents: Gauge = new Gauge({
    name: PUBLISH_LAG_EVENTS_METRIC,
    help: 'Events appended to the log that have not been published to Kafka yet.',
    registers: [registry],
    collect: async () => {
      try {
        lagEvents.set(eventsBehind(await eventStore.headPosition(), checkpoint()));
      } catch (error) {
        reportFailure(error);
      }
    },
  });

  const lagSeconds: Gauge = new Gauge({
    name: PUBLISH_LAG_SECONDS_METRIC,
    help: 'Age in seconds of the oldest event not published to Kafka yet; 0 when caught up.',
    registers: [registry],
    collect: async () => {
      try {
        const [oldest] = await eventStore.readAll(checkpoint(), 1);
        const seconds = oldest ? (Date.now() - Date.parse(oldest.metadata.occurred_at)) / 1000 : 0;
        lagSeconds.set(Math.max(0, seconds));
      } catch (error) {
        reportFailure(error);
      }
    },
  });

  return () => {
    registry.removeSingleMetric(PUBLISH_LAG_EVENTS_METRIC);
    registry.removeSingleMetric(PUBLISH_LAG_SECONDS_METRIC);
  };
};
