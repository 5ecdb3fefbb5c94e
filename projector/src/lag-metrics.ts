import { type AllStreamStart, type EventStore, type GlobalPosition, isAtOrAfter } from '@cropcover/eventstore';
import { positionFromColumns, type ReadModels } from '@cropcover/read-store';
import type { Logger } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { SHADOW_SCHEMA } from './shadow-read-models';

export const LAG_EVENTS_METRIC = 'projection_lag_events';
export const LAG_SECONDS_METRIC = 'projection_lag_seconds';
export const REBUILD_LAG_EVENTS_METRIC = 'projection_rebuild_lag_events';

export interface LagMetricsOptions {
  readonly registry: Registry;
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
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

/** The checkpoints of a rebuild under way (`npm run rebuild`, in its shadow tables); none otherwise. */
const rebuildCheckpoints = async (db: Kysely<ReadModels>): Promise<Map<string, GlobalPosition>> => {
  const table = `${SHADOW_SCHEMA}.projection_checkpoints`;
  const { rows: present } = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(
    db,
  );
  if (!present[0]?.found) return new Map();
  const { rows } = await sql<{ name: string; commit_position: string; prepare_position: string }>`
    select name, commit_position::text, prepare_position::text from ${sql.table(table)}`.execute(db);
  return new Map(rows.map((row) => [row.name, positionFromColumns(row.commit_position, row.prepare_position)]));
};

/** Registers the lag gauges, computed when scraped (no work between scrapes). Returns their removal. */
export const registerLagMetrics = ({
  registry,
  eventStore,
  db,
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

  // A rebuild fills copies of the tables while this projector serves the live ones; this shows it
  // closing in on the head, the swap being due once it is near 0.
  const rebuildLagEvents: Gauge<'projection'> = new Gauge({
    name: REBUILD_LAG_EVENTS_METRIC,
    help: 'Events a rebuild under way has still to replay into its copy of the projection; absent when none runs.',
    labelNames: ['projection'],
    registers: [registry],
    collect: async () => {
      try {
        const [head, rebuilt] = await Promise.all([eventStore.headPosition(), rebuildCheckpoints(db)]);
        rebuildLagEvents.reset();
        for (const [name, position] of rebuilt)
          rebuildLagEvents.set({ projection: name }, eventsBehind(head, position));
      } catch (error) {
        reportFailure(error);
      }
    },
  });

  return () => {
    registry.removeSingleMetric(LAG_EVENTS_METRIC);
    registry.removeSingleMetric(LAG_SECONDS_METRIC);
    registry.removeSingleMetric(REBUILD_LAG_EVENTS_METRIC);
  };
};
