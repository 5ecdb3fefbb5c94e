import { type GlobalPosition, isAtOrAfter } from '@cropcover/eventstore';
import type { Logger } from '@cropcover/runtime';
import type pg from 'pg';
import { listenToChannel } from './channel-listener';
import { positionFromColumns } from './checkpoints';
import {
  decodeProgress,
  PROJECTIONS_ADVANCED_CHANNEL,
  type ProgressSource,
  type ProjectionProgress,
} from './progress-channel';

export interface ReadModelConsistencyOptions {
  readonly pool: pg.Pool;
  /** The projections a read may depend on; a position is readable once all of them reached it. */
  readonly projectionNames: readonly string[];
  readonly logger: Logger;
  /** The projector running in this process, if any: its progress wakes waiters without a round trip. */
  readonly localProgress?: ProgressSource;
  /** How often checkpoints are read while someone waits, in case a notification was lost. */
  readonly pollIntervalMs?: number;
  /** Pause before the listener connection is opened again after it failed. */
  readonly reconnectDelayMs?: number;
}

export interface ReadModelConsistency {
  /** True as soon as every projection is at or after the position; false when the time runs out first. */
  waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean>;
  /** Ends the listener; waits still pending resolve false. */
  close(): Promise<void>;
}

interface Waiter {
  readonly position: GlobalPosition;
  readonly resolve: (caughtUp: boolean) => void;
  readonly timer: NodeJS.Timeout;
}

const DEFAULT_POLL_INTERVAL_MS = 250;
const DEFAULT_RECONNECT_DELAY_MS = 1000;
/** Names the LISTEN connection in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'cropcover-projection-listener';

const READ_CHECKPOINTS = `select name, commit_position::text as commit, prepare_position::text as prepare
  from projection_checkpoints where name = any($1)`;

/**
 * Lets a request wait until the read models contain a write, wherever the projector runs. One shared
 * LISTEN connection and one shared poll serve every waiter: the cost does not grow with their number.
 * A rebuild moves checkpoints back; waits during a rebuild may end early, as reads then are partial anyway.
 */
export const createReadModelConsistency = ({
  pool,
  projectionNames,
  logger,
  localProgress,
  pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
  reconnectDelayMs = DEFAULT_RECONNECT_DELAY_MS,
}: ReadModelConsistencyOptions): ReadModelConsistency => {
  const names = new Set(projectionNames);
  const known = new Map<string, GlobalPosition>();
  const waiters = new Set<Waiter>();
  let closed = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;

  const caughtUp = (position: GlobalPosition): boolean =>
    projectionNames.every((name) => {
      const checkpoint = known.get(name);
      return checkpoint !== undefined && isAtOrAfter(checkpoint, position);
    });

  const finish = (waiter: Waiter, result: boolean): void => {
    clearTimeout(waiter.timer);
    waiters.delete(waiter);
    waiter.resolve(result);
  };

  const advance = ({ name, position }: ProjectionProgress): void => {
    if (!names.has(name)) return;
    const previous = known.get(name);
    if (previous && isAtOrAfter(previous, position)) return;
    known.set(name, position);
    for (const waiter of waiters) if (caughtUp(waiter.position)) finish(waiter, true);
  };

  /** Reads the checkpoints; a refresh already running is shared rather than doubled. */
  const refresh = (): Promise<void> => {
    refreshing ??= pool
      .query<{ name: string; commit: string; prepare: string }>(READ_CHECKPOINTS, [projectionNames])
      .then(({ rows }) => {
        for (const row of rows) advance({ name: row.name, position: positionFromColumns(row.commit, row.prepare) });
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'projection checkpoints could not be read'))
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };

  const schedulePoll = (): void => {
    if (closed || pollTimer || waiters.size === 0) return;
    pollTimer = setTimeout(async () => {
      await refresh();
      pollTimer = undefined;
      schedulePoll();
    }, pollIntervalMs);
  };

  const stopLocal = localProgress?.onAdvanced(advance);
  const listener = listenToChannel(
    {
      pool,
      channel: PROJECTIONS_ADVANCED_CHANNEL,
      applicationName: LISTENER_APPLICATION_NAME,
      logger,
      reconnectDelayMs,
    },
    {
      onNotified: (payload) => {
        for (const progress of decodeProgress(payload)) advance(progress);
      },
      // Progress committed before LISTEN took effect was never announced to this connection.
      onListening: (listening) => {
        if (listening) void refresh();
      },
    },
  );

  return {
    waitFor: (position, timeoutMs) => {
      if (caughtUp(position)) return Promise.resolve(true);
      if (closed || timeoutMs <= 0) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = { position, resolve, timer: setTimeout(() => finish(waiter, false), timeoutMs) };
        waiters.add(waiter);
        schedulePoll();
      });
    },
    close: async () => {
      closed = true;
      stopLocal?.();
      clearTimeout(pollTimer);
      for (const waiter of waiters) finish(waiter, false);
      await Promise.all([listener.close(), refreshing]);
    },
  };
};
