import { type IndexFileIngestion, type IndexFileMediaType, OUT_OF_BOUNDS_LISTED } from '@cropcover/contracts';
import {
  keptValue,
  type RegisteredIndexSource,
  readingBoundsOf,
  startsPeriod,
  type UnitAreas,
  utcDate,
  withinBounds,
} from '@cropcover/domain';
import { indexFileIngestionView, loadIndexFileIngestion, type ReadModels } from '@cropcover/read-store';
import { type FieldError, type Logger, ProblemError } from '@cropcover/runtime';
import type { Kysely, Transaction } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { FUTURE_DATE_MESSAGE } from '../index-readings/future-readings';
import { recordIndexReadings, type SourceReading } from '../index-readings/record-index-readings';
import { cellsKept, takeSourceTurn } from '../locations-of-interest/cells-of-interest';
import { fileValues } from './file-values';
import { leaseEnd, PROCESS_LEASE_ID, renewedLease } from './ingestion-lease';
import { discardIndexFile, holdForIngestion, keepIngestedFile, type StoredIndexFile } from './stored-index-files';

// INDEX-DATA.md §2.1: one code path for the route and `npm run import-readings`. A file is checked whole
// inside one transaction: a value out of bounds, a period its cadence does not start, a date after today
// refuses it and nothing is written. The same bytes for the same source answer the first ingestion.

export interface IndexFileRequest {
  readonly source: RegisteredIndexSource;
  /** The source's unit areas: a unit-level CSV names them by unit_id. */
  readonly units?: UnitAreas | undefined;
  readonly file: StoredIndexFile;
  readonly mediaType: IndexFileMediaType;
  readonly dates?: readonly string[] | undefined;
  readonly variable?: string | undefined;
  readonly label?: string | undefined;
  readonly requestedBy: string;
  readonly now: Date;
}

export interface IngestionOutcome {
  readonly ingestion: IndexFileIngestion;
  /** These bytes were ingested into the source before: nothing was written. */
  readonly unchanged: boolean;
}

const liveIngestion = (db: Kysely<ReadModels>, sourceId: string, sha256: string) =>
  db
    .selectFrom('index_file_ingestions')
    .selectAll()
    .where('source_id', '=', sourceId)
    .where('sha256', '=', sha256)
    .where('status', '<>', 'failed')
    .executeTakeFirst();

/** A problem that names the first values it found wrong. */
const refusal = (code: 'reading_out_of_bounds' | 'reading_in_future', detail: string, errors: FieldError[]) =>
  new ProblemError({ status: 422, code, title: 'Unprocessable content', detail, errors });

interface Totals {
  periods: Set<string>;
  locations: Set<string>;
  readingsWritten: number;
  revisionsWritten: number;
  missing: number;
}

const BATCH = 5_000;

/** Reads the file into the source inside `trx`, only `cells` of a grid file when given; throws the refusal
 *  when any value is wrong. */
const ingestInto = async (
  trx: Transaction<ReadModels>,
  request: IndexFileRequest,
  cells: readonly string[] | undefined,
): Promise<Totals> => {
  const { source, file, label, now } = request;
  const today = utcDate(now);
  const totals: Totals = {
    periods: new Set(),
    locations: new Set(),
    readingsWritten: 0,
    revisionsWritten: 0,
    missing: 0,
  };
  const outOfBounds: FieldError[] = [];
  const future: FieldError[] = [];
  const offPeriod = new Set<string>();
  let wrongValues = 0;
  // Grid files cannot name a cell twice; a CSV can, and that is ambiguous.
  const seen = request.mediaType === 'text/csv' ? new Set<string>() : undefined;
  let pending: SourceReading[] = [];
  const write = async () => {
    if (wrongValues === 0 && pending.length > 0) {
      const recorded = await recordIndexReadings(trx, pending, now, request.requestedBy);
      totals.readingsWritten += recorded.inserted;
      totals.revisionsWritten += recorded.updated;
    }
    pending = [];
  };
  for await (const batch of fileValues(source, file.path, request, cells, request.units)) {
    for (const { location, date, value } of batch) {
      totals.periods.add(date);
      totals.locations.add(location);
      if (seen) {
        const key = `${location}\n${date}`;
        if (seen.has(key))
          throw ProblemError.unprocessable('unreadable_file', `The file gives ${location} on ${date} twice.`);
        seen.add(key);
      }
      if (date > today) {
        wrongValues += 1;
        if (future.length < OUT_OF_BOUNDS_LISTED)
          future.push({ path: `${location}/${date}`, message: FUTURE_DATE_MESSAGE });
        continue;
      }
      if (!startsPeriod(source.cadence, date)) offPeriod.add(date);
      if (value === null) {
        totals.missing += 1;
        continue;
      }
      const bounds = readingBoundsOf(source, date);
      const kept = keptValue(bounds, value);
      if (!withinBounds(bounds, kept)) {
        wrongValues += 1;
        if (outOfBounds.length < OUT_OF_BOUNDS_LISTED)
          outOfBounds.push({
            path: `${location}/${date}`,
            message: `${kept} is outside ${bounds.min}..${bounds.max}${bounds.integer ? ' (whole numbers)' : ''}`,
          });
        continue;
      }
      pending.push({
        sourceId: source.sourceId,
        location,
        index: source.index,
        date,
        value: kept,
        note: null,
        label: label ?? null,
        fileSha256: file.sha256,
      });
      if (pending.length >= BATCH) await write();
    }
  }
  await write();
  if (offPeriod.size > 0)
    throw ProblemError.validationFailed(
      [...offPeriod].slice(0, OUT_OF_BOUNDS_LISTED).map((date) => ({
        path: date,
        message: `does not start a ${source.cadence} period: a reading is dated by its period's first day`,
      })),
    );
  if (outOfBounds.length > 0)
    throw refusal(
      'reading_out_of_bounds',
      `${wrongValues} value(s) are outside the bounds of ${source.unit ?? source.index}; the first ${outOfBounds.length} are listed. Nothing was recorded.`,
      outOfBounds,
    );
  if (future.length > 0)
    throw refusal('reading_in_future', `${wrongValues} value(s) are dated after today. Nothing was recorded.`, future);
  return totals;
};

/** Runs a recorded ingestion under this process's lease, from the file held for it: the readings, the
 *  ingestion's outcome and the file kept commit together, or, the lease lost to another process, not at
 *  all. A grid file keeps only the source's cells of interest, once it has any (INDEX-DATA §2.2). A run
 *  that throws leaves the held file to whoever records its failure. */
export const runIngestion = async (db: Kysely<ReadModels>, ingestionId: string, request: IndexFileRequest) => {
  await db
    .updateTable('index_file_ingestions')
    .set({ status: 'running' })
    .where('ingestion_id', '=', ingestionId)
    .where('lease_id', '=', PROCESS_LEASE_ID)
    .execute();
  const lease = renewedLease(db, ingestionId);
  try {
    await db.transaction().execute(async (trx) => {
      const grid = request.mediaType !== 'text/csv';
      if (grid) await takeSourceTurn(trx, request.source.sourceId);
      const cells = grid ? await cellsKept(trx, request.source.sourceId) : undefined;
      const totals = await ingestInto(trx, request, cells);
      const finished = await trx
        .updateTable('index_file_ingestions')
        .set({
          status: 'succeeded',
          periods: totals.periods.size,
          locations: totals.locations.size,
          readings_written: totals.readingsWritten,
          revisions_written: totals.revisionsWritten,
          missing: totals.missing,
          kept: cells === undefined ? 'every_cell' : 'cells_of_interest',
          finished_at: new Date(),
          lease_id: null,
          leased_until: null,
        })
        .where('ingestion_id', '=', ingestionId)
        .where('lease_id', '=', PROCESS_LEASE_ID)
        .executeTakeFirst();
      if (finished.numUpdatedRows === 0n) throw new Error(`ingestion ${ingestionId}: its lease was taken over`);
      // Kept before the commit, so that no succeeded ingestion is ever without its file.
      await keepIngestedFile(request.file);
    });
  } finally {
    lease.stop();
  }
  await discardIndexFile(request.file);
};

export const errorOf = (error: unknown) =>
  error instanceof ProblemError
    ? { code: error.code, detail: error.detail ?? error.title, ...(error.errors ? { errors: [...error.errors] } : {}) }
    : { code: 'internal_error', detail: 'The file could not be ingested; the service logged why.' };

const readIngestion = async (db: Kysely<ReadModels>, request: IndexFileRequest, ingestionId: string) => {
  const ingestion = await loadIndexFileIngestion(db, request.source.sourceId, ingestionId);
  if (!ingestion) throw new Error(`ingestion ${ingestionId} vanished`);
  return ingestion;
};

/**
 * Ingests a stored file into its source. At once (`asJob` false): the ingestion, or the refusal with
 * nothing recorded. As a job: the queued ingestion at once, run in this process; `GET` shows how it ended.
 */
export const ingestIndexFile = async (
  db: Kysely<ReadModels>,
  request: IndexFileRequest,
  { asJob, logger }: { readonly asJob: boolean; readonly logger: Logger },
): Promise<IngestionOutcome> => {
  const earlier = await liveIngestion(db, request.source.sourceId, request.file.sha256);
  if (earlier) {
    await discardIndexFile(request.file);
    return { ingestion: indexFileIngestionView(earlier), unchanged: true };
  }
  const ingestionId = uuidv7();
  const inserted = await db
    .insertInto('index_file_ingestions')
    .values({
      ingestion_id: ingestionId,
      source_id: request.source.sourceId,
      sha256: request.file.sha256,
      content_type: request.mediaType,
      label: request.label ?? null,
      dates: request.dates ? [...request.dates] : null,
      variable: request.variable ?? null,
      bytes: request.file.bytes,
      status: 'queued',
      requested_by: request.requestedBy,
      received_at: request.now,
      lease_id: PROCESS_LEASE_ID,
      leased_until: leaseEnd(),
      attempts: 1,
    })
    .onConflict((conflict) => conflict.columns(['source_id', 'sha256']).where('status', '<>', 'failed').doNothing())
    .returning('ingestion_id')
    .executeTakeFirst();
  if (!inserted) {
    // The same bytes arrived at the same moment: theirs is the ingestion.
    const other = await liveIngestion(db, request.source.sourceId, request.file.sha256);
    if (other) {
      await discardIndexFile(request.file);
      return { ingestion: indexFileIngestionView(other), unchanged: true };
    }
  }
  const file = await holdForIngestion(request.file, ingestionId);
  const run = runIngestion(db, ingestionId, { ...request, file });
  if (asJob) {
    run.catch(async (error) => {
      if (!(error instanceof ProblemError)) logger.error({ err: error, ingestionId }, 'index file ingestion failed');
      const failed = await db
        .updateTable('index_file_ingestions')
        .set({ status: 'failed', error: JSON.stringify(errorOf(error)), finished_at: new Date() })
        .where('ingestion_id', '=', ingestionId)
        .where('lease_id', '=', PROCESS_LEASE_ID)
        .executeTakeFirst();
      // A job lost to another process is its to end; a failed one keeps nothing of its file.
      if (failed.numUpdatedRows > 0n) await discardIndexFile(file);
    });
    return { ingestion: await readIngestion(db, request, ingestionId), unchanged: false };
  }
  try {
    await run;
  } catch (error) {
    // Refused at once: no trace of it, as of any refused request, its file included.
    await db.deleteFrom('index_file_ingestions').where('ingestion_id', '=', ingestionId).execute();
    await discardIndexFile(file);
    throw error;
  }
  return { ingestion: await readIngestion(db, request, ingestionId), unchanged: false };
};
