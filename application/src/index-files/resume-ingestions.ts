import { rm, stat } from 'node:fs/promises';
import type { IndexFileMediaType } from '@cropcover/contracts';
import { indexSourceAggregate, indexSourceStream } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';
import { loadAggregate } from '../handle-command';
import { unitAreasOfSource } from './file-source';
import { errorOf, runIngestion } from './ingest-index-file';
import { leaseEnd, PROCESS_LEASE_ID } from './ingestion-lease';
import { ingestionFilePath } from './stored-index-files';

// An ingestion whose process stopped or died mid-file (its lease ran out, its transaction rolled back, so
// nothing of it was written) is taken up again from the file held for it, by the process that writes
// ingestions (the command API). One that never finished in MAX_ATTEMPTS runs, or whose source or
// file is gone, is failed with the reason: no ingestion stays `queued` or `running` forever.

const MAX_ATTEMPTS = 3;
const POLL_MS = 5_000;

type Ending = { readonly code: string; readonly detail: string };

/** Fails the ingestion if it is still this process's, and removes the file held for it: a failed
 *  ingestion keeps nothing. */
const fail = async (deps: InterruptedIngestionsDeps, ingestionId: string, error: Ending) => {
  const failed = await deps.db
    .updateTable('index_file_ingestions')
    .set({
      status: 'failed',
      error: JSON.stringify(error),
      finished_at: new Date(),
      lease_id: null,
      leased_until: null,
    })
    .where('ingestion_id', '=', ingestionId)
    .where('lease_id', '=', PROCESS_LEASE_ID)
    .executeTakeFirst();
  if (failed.numUpdatedRows > 0n) await rm(ingestionFilePath(deps.directory, ingestionId), { force: true });
};

/** Takes the oldest unfinished ingestion whose lease ran out under this process's lease. */
const claimInterrupted = (db: Kysely<ReadModels>) =>
  db
    .updateTable('index_file_ingestions')
    .set({ lease_id: PROCESS_LEASE_ID, leased_until: leaseEnd(), attempts: sql`attempts + 1` })
    .where(
      'ingestion_id',
      '=',
      db
        .selectFrom('index_file_ingestions')
        .select('ingestion_id')
        .where('status', 'in', ['queued', 'running'])
        .where((where) => where.or([where('leased_until', 'is', null), where('leased_until', '<', sql<Date>`now()`)]))
        .orderBy('received_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .executeTakeFirst();

export interface InterruptedIngestionsDeps {
  readonly db: Kysely<ReadModels>;
  readonly eventStore: EventStore;
  /** Where files are kept (`<DATA_DIR>/index-files`). */
  readonly directory: string;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Resumes or fails every interrupted ingestion there is now, one at a time; how many it took up. */
export const resumeInterruptedIngestions = async (deps: InterruptedIngestionsDeps): Promise<number> => {
  const { db, logger } = deps;
  let taken = 0;
  for (;;) {
    const row = await claimInterrupted(db);
    if (row === undefined) return taken;
    taken += 1;
    const ingestionId = row.ingestion_id;
    if (row.attempts > MAX_ATTEMPTS) {
      await fail(deps, ingestionId, {
        code: 'ingestion_abandoned',
        detail: `The ingestion was interrupted ${MAX_ATTEMPTS} times (its process stopped mid-file); send the file again.`,
      });
      continue;
    }
    const path = ingestionFilePath(deps.directory, ingestionId);
    const bytes = await stat(path).then(
      (file) => file.size,
      () => undefined,
    );
    const state = await loadAggregate(deps.eventStore, indexSourceStream(row.source_id), indexSourceAggregate);
    if (bytes === undefined || state.status !== 'registered') {
      await fail(deps, ingestionId, {
        code: 'ingestion_interrupted',
        detail: `The ingestion was interrupted and cannot be resumed: ${bytes === undefined ? 'the kept file is gone' : 'the source is gone'}; send the file again.`,
      });
      continue;
    }
    logger.warn({ ingestionId, attempt: row.attempts }, 'resuming an interrupted index file ingestion');
    try {
      await runIngestion(db, ingestionId, {
        source: state.source,
        units: await unitAreasOfSource(deps.eventStore, row.source_id),
        file: { sha256: row.sha256, path, bytes },
        mediaType: row.content_type as IndexFileMediaType,
        dates: row.dates ?? undefined,
        variable: row.variable ?? undefined,
        label: row.label ?? undefined,
        requestedBy: row.requested_by,
        now: deps.clock.now(),
      });
    } catch (error) {
      await fail(deps, ingestionId, errorOf(error));
    }
  }
};

/** Looks for interrupted ingestions at start and every few seconds after, until stopped. */
export const startIngestionResumer = (deps: InterruptedIngestionsDeps): { stop(): Promise<void> } => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = resumeInterruptedIngestions(deps)
        .catch((error: unknown) => deps.logger.error({ err: error }, 'resuming index file ingestions failed'))
        .finally(() => schedule(POLL_MS));
    }, delayMs);
  };
  schedule(0);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
    },
  };
};
