import {
  type AllStreamStart,
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
} from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { type ProgressSource, type ProjectionProgress, readCheckpoint } from '@cropcover/read-store';
import { inSpan, type Logger, linkToCarrier, pauseUnlessAborted } from '@cropcover/runtime';
import { type Link, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import { registerLagMetrics } from './lag-metrics';
import type { Projection } from './projection';
import { applyBatchToEach } from './projection-batch';

export interface ProjectorOptions {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly projections: readonly Projection[];
  readonly logger: Logger;
  /** Where the lag gauges go; without one the projector exposes no metrics. */
  readonly metricsRegistry?: Registry;
  /** Most events applied in one transaction. */
  readonly batchSize?: number;
  /** After a batch that was not full, wait this long before reading the next, so what is appended meanwhile
   *  is applied in one transaction instead of one each: for followers no request waits on (the webhook
   *  recorder), whose cost then stays bounded by time, not by the rate of appends. Default 0. */
  readonly gatherMs?: number;
}

export interface Projector extends ProgressSource {
  /** The last committed checkpoint of a projection. */
  checkpoint(name: string): GlobalPosition | AllStreamStart;
  /** Finishes the batches in flight (their checkpoints are committed), then stops following the log. */
  stop(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 500;

/** A batch has as many causes as events: its span links to each traced append rather than having a parent
 *  (and starts from the root context, not from whatever append happened to wake the subscription). */
const linksToAppends = (batch: readonly RecordedEvent[]): Link[] =>
  batch.flatMap((event) => linkToCarrier(event.metadata) ?? []);

/** Follows the log for its projections, each from its stored checkpoint. */
export const startProjector = async ({
  eventStore,
  db,
  projections,
  logger,
  metricsRegistry,
  batchSize = DEFAULT_BATCH_SIZE,
  gatherMs = 0,
}: ProjectorOptions): Promise<Projector> => {
  const names = projections.map((projection) => projection.name);
  if (new Set(names).size !== names.length) throw new Error(`projection names must be unique: ${names.join(', ')}`);

  const checkpoints = new Map<string, GlobalPosition | AllStreamStart>();
  for (const name of names) checkpoints.set(name, await readCheckpoint(db, name));
  const checkpointOf = (name: string): GlobalPosition | AllStreamStart => checkpoints.get(name) ?? 'start';
  const listeners = new Set<(progress: ProjectionProgress) => void>();

  /** Tells this process's listeners (the all-in-one's HTTP workers, over IPC); other processes heard
   *  the batch's own NOTIFY when it committed. */
  const announce = (moved: readonly string[], position: GlobalPosition): void => {
    for (const name of moved)
      for (const listener of listeners) {
        try {
          listener({ name, position });
        } catch (error) {
          logger.error({ err: error, projection: name }, 'projection progress listener failed');
        }
      }
  };

  // One subscription for every projection, from the one furthest behind: each batch is read once and
  // applied to all of them in one transaction (applyBatchToEach), so the cost per batch does not grow
  // with the number of projections.
  const furthestBehind = (): GlobalPosition | AllStreamStart => {
    const stored = names.map(checkpointOf);
    const positions = stored.filter((checkpoint): checkpoint is GlobalPosition => checkpoint !== 'start');
    if (positions.length < stored.length || positions.length === 0) return 'start';
    return positions.reduce((lowest, checkpoint) => (comparePositions(checkpoint, lowest) < 0 ? checkpoint : lowest));
  };
  const stopping = new AbortController();
  const subscription = eventStore.subscribeToAll(
    furthestBehind(),
    (batch) =>
      inSpan(
        'projection batch',
        {
          attributes: { 'cropcover.projections': names.join(','), 'cropcover.event_count': batch.length },
          links: linksToAppends(batch),
        },
        async () => {
          const moved = await applyBatchToEach(db, projections, checkpointOf, batch);
          const last = batch.at(-1);
          if (moved.length > 0 && last) {
            for (const name of moved) checkpoints.set(name, last.position);
            announce(moved, last.position);
          }
          if (gatherMs > 0 && batch.length < batchSize) await pauseUnlessAborted(gatherMs, stopping.signal);
        },
        ROOT_CONTEXT,
      ),
    {
      batchSize,
      onError: (error) => logger.error({ err: error, projections: names }, 'projection batch failed; retrying it'),
    },
  );

  const unregisterMetrics = metricsRegistry
    ? registerLagMetrics({ registry: metricsRegistry, eventStore, db, projectionNames: names, checkpointOf, logger })
    : undefined;
  logger.info({ projections: names }, 'projector started');

  return {
    checkpoint: checkpointOf,
    onAdvanced: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: async () => {
      // A batch pausing to gather the next ends its pause, so stopping does not wait it out.
      stopping.abort();
      await subscription.stop();
      unregisterMetrics?.();
      logger.info({ projections: names }, 'projector stopped');
    },
  };
};
