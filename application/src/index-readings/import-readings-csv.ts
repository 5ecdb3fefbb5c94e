import { createReadStream } from 'node:fs';
import { IndexReading } from '@cropcover/contracts';
import { type ActorInRoles, utcDate } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { type FieldError, ProblemError, parseInput } from '@cropcover/runtime';
import { CsvError, type Info, parse } from 'csv-parse';
import type { Kysely, Transaction } from 'kysely';
import { FUTURE_DATE_MESSAGE, isDatedAfter } from './future-readings';
import { recordIndexReadings } from './record-index-readings';
import { sourceReadingsOf } from './source-readings';

/** By source and location (index may be left empty: the source's), or per field. */
export const CSV_SOURCE_HEADER = ['source_id', 'location', 'index', 'date', 'value', 'source'] as const;
export const CSV_FIELD_HEADER = ['farm_id', 'field_id', 'index', 'date', 'value', 'source'] as const;
type CsvHeader = typeof CSV_SOURCE_HEADER | typeof CSV_FIELD_HEADER;

export type CsvImportOutcome =
  | { readonly status: 'imported'; readonly accepted: number; readonly inserted: number; readonly updated: number }
  /** Nothing was written; `line` is the file's line number (1 = the header). */
  | { readonly status: 'refused'; readonly line: number; readonly errors: readonly FieldError[] };

export interface CsvImportOptions {
  /** Readings per upsert statement. */
  readonly batchSize?: number;
}

/** Who the import writes as: an operator, so any source; per-field rows go to this organization's own
 *  field source, as the endpoint's per-field shape does for its caller. */
export interface CsvImporter {
  readonly subject: string;
  readonly organizationId: string;
}

const HEADER_MESSAGE = `the first line must be the header ${CSV_SOURCE_HEADER.join(',')} or ${CSV_FIELD_HEADER.join(',')}`;

const FIELD_ROWS_NEED_ORGANIZATION =
  "readings per field belong to an organization's own field source: name the organization (--organization)";

const headerOf = (record: readonly string[]): CsvHeader | undefined => {
  const text = record.map((cell) => cell.trim()).join(',');
  return [CSV_SOURCE_HEADER, CSV_FIELD_HEADER].find((header) => header.join(',') === text);
};

const DECIMAL_NUMERAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A cell as the JSON the endpoint would get: empty is absent, a decimal numeral is a number, anything
 *  else stays text so the schema refuses it rather than reading it as 0 or NaN. */
const numberCell = (cell: string): number | string | undefined => {
  const text = cell.trim();
  if (text === '') return undefined;
  return DECIMAL_NUMERAL.test(text) ? Number(text) : text;
};

/** The row checked by the endpoint's schema: the reading, or why it is refused. */
const readingOfRow = (
  header: CsvHeader,
  record: readonly string[],
): { reading?: IndexReading; errors: FieldError[] } => {
  if (record.length !== header.length)
    return { errors: [{ path: '', message: `must have ${header.length} columns: ${header.join(',')}` }] };
  const [first, second, index, date, value, source] = record as [string, string, string, string, string, string];
  const candidate = {
    ...(header === CSV_SOURCE_HEADER ? { source_id: first, location: second } : { farm_id: first, field_id: second }),
    ...(index.trim() ? { index } : {}),
    date,
    value: numberCell(value),
    ...(source.trim() ? { source } : {}),
  };
  try {
    return { reading: parseInput(IndexReading, candidate), errors: [] };
  } catch (error) {
    if (error instanceof ProblemError && error.errors) return { errors: [...error.errors] };
    throw error;
  }
};

const readingKey = (reading: IndexReading): string =>
  JSON.stringify([reading.source_id, reading.location, reading.farm_id, reading.field_id, reading.index, reading.date]);

/** A batch refused by the endpoint's source checks, as the line it came from. */
const refusedLine = (error: ProblemError, lines: readonly number[]): CsvImportOutcome => {
  const [first] = error.errors ?? [];
  const at = Number(/^readings\.(\d+)/.exec(first?.path ?? '')?.[1] ?? 0);
  const path = first?.path.replace(/^readings\.\d+\.?/, '') ?? '';
  return {
    status: 'refused',
    line: lines[at] ?? lines[0] ?? 1,
    errors: [{ path, message: first?.message ?? error.detail }],
  };
};

/** Reads, checks and writes the file inside `trx`; stops at the first bad line. */
const importInto = async (
  trx: Transaction<ReadModels>,
  eventStore: EventStore,
  importer: ActorInRoles & { readonly organizationId: string },
  path: string,
  now: Date,
  batchSize: number,
): Promise<CsvImportOutcome> => {
  const today = utcDate(now);
  const input = createReadStream(path);
  const records = input.pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }));
  // Line of each key seen so far: a key given twice is ambiguous, as in one request to the endpoint.
  const seen = new Map<string, number>();
  let batch: IndexReading[] = [];
  let batchLines: number[] = [];
  let accepted = 0;
  let inserted = 0;
  let updated = 0;
  /** Writes the batch; the refusal of its first bad line, if any. */
  const flush = async (): Promise<CsvImportOutcome | undefined> => {
    try {
      const stored = await sourceReadingsOf(eventStore, importer, batch);
      const recorded = await recordIndexReadings(trx, stored, now, importer.subject);
      inserted += recorded.inserted;
      updated += recorded.updated;
    } catch (error) {
      if (error instanceof ProblemError) return refusedLine(error, batchLines);
      throw error;
    }
    batch = [];
    batchLines = [];
    return undefined;
  };
  let line = 1;
  let header: CsvHeader | undefined;
  try {
    for await (const row of records as AsyncIterable<{ record: string[]; info: Info }>) {
      line = row.info.lines;
      if (header === undefined) {
        header = headerOf(row.record);
        if (header === undefined) return { status: 'refused', line, errors: [{ path: '', message: HEADER_MESSAGE }] };
        if (header === CSV_FIELD_HEADER && importer.organizationId === '')
          return { status: 'refused', line, errors: [{ path: '', message: FIELD_ROWS_NEED_ORGANIZATION }] };
        continue;
      }
      const { reading, errors } = readingOfRow(header, row.record);
      if (!reading) return { status: 'refused', line, errors };
      if (isDatedAfter(reading, today))
        return { status: 'refused', line, errors: [{ path: 'date', message: FUTURE_DATE_MESSAGE }] };
      const key = readingKey(reading);
      const earlier = seen.get(key);
      if (earlier !== undefined)
        return {
          status: 'refused',
          line,
          errors: [{ path: '', message: `repeats the location, index and date of line ${earlier}` }],
        };
      seen.set(key, line);
      batch.push(reading);
      batchLines.push(line);
      accepted += 1;
      if (batch.length >= batchSize) {
        const refused = await flush();
        if (refused) return refused;
      }
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const at = typeof error.lines === 'number' ? error.lines : line;
    return { status: 'refused', line: at, errors: [{ path: '', message: error.message }] };
  } finally {
    input.destroy();
  }
  if (header === undefined) return { status: 'refused', line: 1, errors: [{ path: '', message: HEADER_MESSAGE }] };
  const refused = await flush();
  return refused ?? { status: 'imported', accepted, inserted, updated };
};

/**
 * Bulk history from a CSV file, by source (`source_id,location,index,date,value,source`) or per field
 * (`farm_id,field_id,index,date,value,source`), streamed and checked row by row with the endpoint's
 * schema and source rules and written in batches through the endpoint's upsert, all in one transaction:
 * a bad line refuses the whole file, so a re-run after the fix starts from a clean slate.
 */
export const importReadingsCsv = async (
  db: Kysely<ReadModels>,
  eventStore: EventStore,
  importer: CsvImporter,
  path: string,
  now: Date,
  { batchSize = 5_000 }: CsvImportOptions = {},
): Promise<CsvImportOutcome> => {
  // The operator running the import holds the database: it writes as an admin of its organization.
  const actor = { ...importer, isAdmin: true, roles: ['admin'] };
  const trx = await db.startTransaction().execute();
  try {
    const outcome = await importInto(trx, eventStore, actor, path, now, batchSize);
    await (outcome.status === 'imported' ? trx.commit() : trx.rollback()).execute();
    return outcome;
  } catch (error) {
    await trx.rollback().execute();
    throw error;
  }
};
