import type pg from 'pg';
import type { AppendResult } from '../port';
import { appendAllOrNone, conflict, type EncodedAppend, isRevisionConflict, runAppends } from './append';

// Group commit: an append waits for the end of the event-loop turn (so the appends made in one turn go
// together) and, while the process already has `maxStatementsInFlight` append statements running, for a
// free slot; the next statement takes all the waiting ones (up to `maxAppendsPerStatement`, one per stream) in
// one statement, so one transaction and one fsync serve many writers. Each append still passes or fails on its
// own expected revision (the statement inserts only those that passed), and is answered only once that
// statement committed. If the shared statement fails as a whole (a writer elsewhere raced one of its streams,
// a duplicate event id), nothing of it was written and each of its appends is run again on its own, so
// whatever failed fails only its own append, exactly as it would have alone.

export interface GroupCommitOptions {
  readonly maxStatementsInFlight: number;
  readonly maxAppendsPerStatement: number;
}

interface WaitingAppend {
  readonly append: EncodedAppend;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommit {
  append(append: EncodedAppend): Promise<AppendResult>;
}

export const createGroupCommit = (pool: pg.Pool, options: GroupCommitOptions): GroupCommit => {
  const waiting: WaitingAppend[] = [];
  // A stream has at most one append in flight, so appends to one stream commit in the order they came.
  const streamsInFlight = new Set<string>();
  let statementsInFlight = 0;

  const takeStatement = (): WaitingAppend[] => {
    const taken: WaitingAppend[] = [];
    const held = new Set(streamsInFlight);
    for (let i = 0; i < waiting.length && taken.length < options.maxAppendsPerStatement; ) {
      const next = waiting[i]!;
      if (held.has(next.append.streamId)) {
        i++;
        continue;
      }
      held.add(next.append.streamId);
      taken.push(next);
      waiting.splice(i, 1);
    }
    // Inserted in stream order: two processes whose statements share streams then take those streams'
    // index entries in the same order and never wait on each other in a cycle (a deadlock PostgreSQL
    // would break only after deadlock_timeout). Appends to different streams have no order of their own.
    return taken.sort((a, b) =>
      a.append.streamId < b.append.streamId ? -1 : a.append.streamId > b.append.streamId ? 1 : 0,
    );
  };

  const runAlone = async ({ append, resolve, reject }: WaitingAppend): Promise<void> => {
    await appendAllOrNone(pool, [append]).then(([result]) => resolve(result!), reject);
  };

  const run = async (statement: readonly WaitingAppend[]): Promise<void> => {
    try {
      const outcomes = await runAppends(
        pool,
        statement.map(({ append }) => append),
        false,
      );
      outcomes.forEach(({ headRevision, result }, i) => {
        const { append, resolve, reject } = statement[i]!;
        if (result) resolve(result);
        else reject(conflict(append.streamId, append.expected, headRevision));
      });
    } catch (error) {
      if (statement.length === 1 && !isRevisionConflict(error)) statement[0]!.reject(error);
      else await Promise.all(statement.map(runAlone));
    }
  };

  let startScheduled = false;
  // Starts statements once the current turn of the event loop is over rather than at once: the writers a
  // statement answered append their next events in that turn, and they should share one statement, not
  // give the first of them one of its own.
  const scheduleStart = (): void => {
    if (startScheduled) return;
    startScheduled = true;
    setImmediate(() => {
      startScheduled = false;
      startStatements();
    });
  };

  const startStatements = (): void => {
    while (statementsInFlight < options.maxStatementsInFlight && waiting.length > 0) {
      const statement = takeStatement();
      if (statement.length === 0) return;
      statementsInFlight++;
      for (const { append } of statement) streamsInFlight.add(append.streamId);
      void run(statement).finally(() => {
        statementsInFlight--;
        for (const { append } of statement) streamsInFlight.delete(append.streamId);
        scheduleStart();
      });
    }
  };

  return {
    append: (append) =>
      new Promise<AppendResult>((resolve, reject) => {
        waiting.push({ append, resolve, reject });
        scheduleStart();
      }),
  };
};
