import type { RegisteredIndexSource } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { type Clock, type Logger, ProblemError } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';
import { backfillCells } from './backfill-cells';

// A quote or issue on a location whose history is not yet read from the kept files waits for that one
// backfill (INDEX-DATA §2.2), within HISTORY_BACKFILL_WAIT_MS; past it the caller is told to come back and
// the backfill goes on. Callers asking for the same cells of a process share one backfill; across
// processes the source's turn (cells-of-interest.ts) makes the second find the cells held and read nothing.

export interface HistoryBackfills {
  /** Resolves once the cells' history is held; 503 `history_backfilling` when it takes longer than the wait. */
  hold(source: RegisteredIndexSource, cells: readonly string[]): Promise<void>;
  /** Starts the backfill of the cells and returns at once (an area of interest: nobody waits for it). */
  start(source: RegisteredIndexSource, cells: readonly string[]): void;
}

export interface HistoryBackfillSettings {
  readonly directory: string;
  readonly waitMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

const allHeld = async (db: Kysely<ReadModels>, sourceId: string, cells: readonly string[]): Promise<boolean> => {
  const row = await db
    .selectFrom('index_cells_of_interest')
    .select((select) => select.fn.countAll<number>().as('held'))
    .where('source_id', '=', sourceId)
    .where('held_at', 'is not', null)
    .where(sql<boolean>`cell = any(${[...cells]}::text[])`)
    .executeTakeFirstOrThrow();
  return Number(row.held) === new Set(cells).size;
};

export const historyBackfills = (
  db: Kysely<ReadModels>,
  { directory, waitMs, clock, logger }: HistoryBackfillSettings,
): HistoryBackfills => {
  const running = new Map<string, Promise<string[]>>();
  const backfill = (source: RegisteredIndexSource, cells: readonly string[]): Promise<string[]> => {
    const key = JSON.stringify([source.sourceId, ...[...new Set(cells)].sort()]);
    const existing = running.get(key);
    if (existing) return existing;
    const started = backfillCells(db, { source, cells, directory, now: clock.now() }).finally(() =>
      running.delete(key),
    );
    running.set(key, started);
    return started;
  };
  const logFailure = (source: RegisteredIndexSource, cells: readonly string[]) => (error: unknown) =>
    logger.error({ err: error, sourceId: source.sourceId, cells: cells.length }, 'history backfill failed');
  return {
    start: (source, cells) => {
      if (cells.length > 0) backfill(source, cells).catch(logFailure(source, cells));
    },
    hold: async (source, cells) => {
      if (cells.length === 0 || (await allHeld(db, source.sourceId, cells))) return;
      const backfilling = backfill(source, cells);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'waiting'>((resolve) => {
        timer = setTimeout(resolve, waitMs, 'waiting');
      });
      try {
        if ((await Promise.race([backfilling.then(() => 'held' as const), waited])) === 'held') return;
      } finally {
        clearTimeout(timer);
      }
      backfilling.catch(logFailure(source, cells));
      throw ProblemError.serviceUnavailable(
        'history_backfilling',
        `The history of ${cells.join('; ')} in source ${source.sourceId} is being read from the files it keeps; nothing was changed. Try again after Retry-After seconds.`,
        Math.max(1, Math.ceil(waitMs / 1000)),
      );
    },
  };
};
