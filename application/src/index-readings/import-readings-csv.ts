import { createReadStream } from 'node:fs';
import { IndexReading } from '@cropcover/contracts';
import { utcDate } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { type FieldError, ProblemError, parseInput } from '@cropcover/runtime';
import { CsvError, type Info, parse } from 'csv-parse';
import type { Kysely, Transaction } from 'kysely';
import { FUTURE_DATE_MESSAGE, isDatedAfter } from './future-readings';
import { recordIndexReadings } from './record-index-readings';

export const CSV_HEADER = ['farm_id', 'field_id', 'index', 'date', 'value', 'source'] as const;

export type CsvImportOutcome =
  | { readonly status: 'imported'; readonly accepted: number; readonly inserted: number; readonly updated: number }
  /** Nothing was written; `line` is the file's line number (1 = the header). */
  | { readonly status: 'refused'; readonly line: number; readonly errors: readonly FieldError[] };

export interface CsvImportOptions {
  /** Readings per upsert statement. */
  readonly batchSize?: number;
}

const HEADER_MESSAGE = `the first line must be the header ${CSV_HEADER.join(',')}`;

const DECIMAL_NUMERAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A cell as the JSON the endpoint would get: empty is absent, a decimal numeral is a number, anything
 *  else stays text so the schema refuses it rather than reading it as 0 or NaN. */
const numberCell = (cell: string): number | string | undefined => {
  const text = cell.trim();
  if (text === '') return undefined;
  return DECIMAL_NUMERAL.test(text) ? Number(text) : text;
};

/** The row checked by the endpoint's schema: the reading, or why it is refused. */
const readingOfRow = (record: readonly string[]): { reading?: IndexReading; errors: FieldError[] } => {
  if (record.length !== CSV_HEADER.length)
    return { errors: [{ path: '', message: `must have ${CSV_HEADER.length} columns: ${CSV_HEADER.join(',')}` }] };
  const [farm_id, field_id, index, date, value, source] = record as [string, string, string, string, string, string];
  const candidate = { farm_id, field_id, index, date, value: numberCell(value), ...(source.trim() ? { source } : {}) };
  try {
    return { reading: parseInput(IndexReading, candidate), errors: [] };
  } catch (error) {
    if (error instanceof ProblemError && error.errors) return { errors: [...error.errors] };
    throw error;
  }
};

const readingKey = (reading: IndexReading): string =>
  JSON.stringify([reading.farm_id, reading.field_id, reading.index, reading.date]);

/** Reads, checks and writes the file inside `trx`; stops at the first bad line. */
const importInto = async (
  trx: Transaction<ReadModels>,
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
  let accepted = 0;
  let inserted = 0;
  let updated = 0;
  const flush = async () => {
    const recorded = await recordIndexReadings(trx, batch, now);
    inserted += recorded.inserted;
    updated += recorded.updated;
    batch = [];
  };
  let line = 1;
  let header = true;
  try {
    for await (const row of records as AsyncIterable<{ record: string[]; info: Info }>) {
      line = row.info.lines;
      if (header) {
        header = false;
        if (row.record.map((cell) => cell.trim()).join(',') !== CSV_HEADER.join(','))
          return { status: 'refused', line, errors: [{ path: '', message: HEADER_MESSAGE }] };
        continue;
      }
      const { reading, errors } = readingOfRow(row.record);
      if (!reading) return { status: 'refused', line, errors };
      if (isDatedAfter(reading, today))
        return { status: 'refused', line, errors: [{ path: 'date', message: FUTURE_DATE_MESSAGE }] };
      const key = readingKey(reading);
      const earlier = seen.get(key);
      if (earlier !== undefined)
        return {
          status: 'refused',
          line,
          errors: [{ path: '', message: `repeats the farm_id, field_id, index and date of line ${earlier}` }],
        };
      seen.set(key, line);
      batch.push(reading);
      accepted += 1;
      if (batch.length >= batchSize) await flush();
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const at = typeof error.lines === 'number' ? error.lines : line;
    return { status: 'refused', line: at, errors: [{ path: '', message: error.message }] };
  } finally {
    input.destroy();
  }
  if (header) return { status: 'refused', line: 1, errors: [{ path: '', message: HEADER_MESSAGE }] };
  await flush();
  return { status: 'imported', accepted, inserted, updated };
};

/**
 * Bulk history from a CSV file (`farm_id,field_id,index,date,value,source`), streamed and checked row by
 * row with the endpoint's schema and written in batches through the endpoint's upsert, all in one
 * transaction: a bad line refuses the whole file, so a re-run after the fix starts from a clean slate.
 */
export const importReadingsCsv = async (
  db: Kysely<ReadModels>,
  path: string,
  now: Date,
  { batchSize = 5_000 }: CsvImportOptions = {},
): Promise<CsvImportOutcome> => {
  const trx = await db.startTransaction().execute();
  try {
    const outcome = await importInto(trx, path, now, batchSize);
    await (outcome.status === 'imported' ? trx.commit() : trx.rollback()).execute();
    return outcome;
  } catch (error) {
    await trx.rollback().execute();
    throw error;
  }
};
