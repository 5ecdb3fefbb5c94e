import { type AllStreamStart, type EventStore, type GlobalPosition, isAtOrAfter } from '@cropcover/eventstore';
import type { Logger } from '@cropcover/runtime';
import { Gauge, type Registry } from 'prom-client';

export const LAG_EVENTS_METRIC = 'projection_lag_events';
export const LAG_SECONDS_METRIC = 'projection_lag_seconds';

export interface LagMetricsOptions {
  readonly registry: Registry;
  readonly eventStore: EventStore;
  readonly projectionNames: readonly string[];
  readonly checkpointOf: (name: string) => GlobalPosition | AllStreamStart;
  readonly logger: Logger;
}

/** Events between the checkpoint and the head. On PostgreSQL the prepare position is the global position,
 *  so this counts appended events (rolled-back appends leave gaps, making it an upper bound); a head that
 *  is ahead in commit order but not in prepare order still counts as behind by at least one. */
export const eventsBehind = (
  head: GlobalPosition | AllStreamStart,
  checkpoint: GlobalPosition | AllStreamStart,
): number => {
  if (head === 'start' || isAtOrAfter(checkpoint, head)) return 0;
  const gap = head.prepare - (checkpoint === 'start' ? 0n : checkpoint.prepare);
  return gap > 0n ? Number(gap) : 1;
};

/** Registers the lag gauges, computed when scraped (no work between scrapes). Returns their removal. */
export const registerLagMetrics = ({
  registry,
  eventStore,
  projectionNames,
  checkpointOf,
  logger,
}: LagMetricsOptions): (() => void) => {
  // A failed scrape keeps the previous values rather than failing the whole /metrics response.
  const reportFailure = (error: unknown): void => logger.warn({ err: error }, 'projection lag could not be measured');

  const lagEvents: Gauge<'projection'> = new Gauge({
    name: LAG_EVENTS_METRIC,
    help: 'Events appended to the log that the projection has not applied yet.',
    labelNames: ['projection'],
    registers: [registry],
    collect: async () => {
      try {
        const head = await eventStore.headPosition();
        for (const name of projectionNames) lagEvents.set({ projection: name }, eventsBehind(head, checkpointOf(name)));
      } catch (error) {
        reportFailure(error);
      }
    },
  });

  const lagSeconds: Gauge<'projection'> = new Gauge({
    name: LAG_SECONDS_METRIC,
    help: 'Age in seconds of the oldest event the projection has not applied yet; 0 when caught up.',
    labelNames: ['projection'],
    registers: [registry],
    collect: async () => {
      try {
        const ages = await Promise.all(
          projectionNames.map(async (name) => {
            const [oldest] = await eventStore.readAll(checkpointOf(name), 1);
            const seconds = oldest ? (Date.now() - Date.parse(oldest.metadata.occurred_at)) / 1000 : 0;
            return [name, Math.max(0, seconds)] as const;
          }),
        );
        for (const [name, seconds] of ages) lagSeconds.set({ projection: name }, seconds);
      } catch (error) {
        reportFailure(error);
      }
    },
  });

  return () => {
    registry.removeSingleMetric(LAG_EVENTS_METRIC);
    registry.removeSingleMetric(LAG_SECONDS_METRIC);
  };
};
