import { CsvError, parse } from 'csv-parse/sync';
import { readCell } from './phase-table-cells';
import {
  COLUMN_KINDS,
  COVER_COLUMNS,
  type Column,
  type CoverColumn,
  type Fields,
  PAYOUT_COLUMNS,
  PAYOUT_MAP_COLUMNS,
  type PhaseColumn,
  SHEET_COLUMNS,
  type SheetColumn,
} from './phase-table-columns';
import { sheetOfFields } from './phase-table-fields';

// A phase table back into the sheet it says (TERM-SHEETS.md §5.1). Only the table's own rules are checked
// here — CSV, known columns, readable cells, one value per sheet and cover field, cells of the row's payout
// map —; the sheet it gives is then checked as a JSON sheet is (its schema, then its rules), so both forms
// take the one validation path.

/** Where the table is wrong: `row` counts the header as row 1, as a spreadsheet shows it. */
export interface PhaseTableError {
  readonly row?: number;
  readonly column?: string;
  readonly message: string;
}

export type PhaseTableReading = { readonly sheet: unknown } | { readonly errors: readonly PhaseTableError[] };

const KNOWN_COLUMNS: ReadonlySet<string> = new Set(Object.keys(COLUMN_KINDS));

const parseRecords = (text: string): string[][] | PhaseTableError => {
  try {
    return parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The records read before the faulty one, so the faulty one's row (csv-parse's message names its line).
    const records = typeof error.records === 'number' ? error.records : undefined;
    return { ...(records === undefined ? {} : { row: records + 1 }), message: error.message };
  }
};

const headerErrors = (header: readonly string[]): PhaseTableError[] => [
  ...header.flatMap((column, at) => [
    ...(KNOWN_COLUMNS.has(column) ? [] : [{ row: 1, column, message: 'is not a column of the phase table' }]),
    ...(header.indexOf(column) === at ? [] : [{ row: 1, column, message: 'is named twice' }]),
  ]),
  ...(header.includes('peril') ? [] : [{ row: 1, message: 'needs a peril column: it says which cover a row is' }]),
];

interface Row {
  readonly row: number;
  readonly cells: ReadonlyMap<Column, string>;
  readonly fields: Fields<Column>;
}

/** Each row's cells read by their column's kind. */
const readRows = (header: readonly Column[], records: readonly string[][], errors: PhaseTableError[]): Row[] =>
  records.map((record, at) => {
    const row = at + 2;
    const cells = new Map<Column, string>();
    const fields: Fields<Column> = {};
    header.forEach((column, index) => {
      const cell = record[index] ?? '';
      const reading = readCell(cell, COLUMN_KINDS[column]);
      if (reading === undefined) return;
      cells.set(column, cell);
      if ('error' in reading) errors.push({ row, column, message: reading.error });
      else fields[column] = reading.value;
    });
    return { row, cells, fields };
  });

/** A sheet's or a cover's field: written on any of its rows, the same wherever it is written. */
const sharedFields = <C extends Column>(
  columns: readonly C[],
  rows: readonly Row[],
  errors: PhaseTableError[],
): Fields<C> => {
  const fields: Fields<C> = {};
  for (const column of columns) {
    const written = rows.filter((row) => row.cells.has(column));
    const first = written[0];
    if (first === undefined) continue;
    const differing = written.find((row) => row.cells.get(column) !== first.cells.get(column));
    if (differing !== undefined)
      errors.push({ row: differing.row, column, message: `differs from row ${first.row}: a field has one value` });
    fields[column] = first.fields[column];
  }
  return fields;
};

const phaseOf = (row: Row, errors: PhaseTableError[]): Fields<PhaseColumn> => {
  const { payout } = row.fields;
  const own: readonly PhaseColumn[] =
    typeof payout === 'string' && payout in PAYOUT_COLUMNS ? PAYOUT_COLUMNS[payout as keyof typeof PAYOUT_COLUMNS] : [];
  for (const column of PAYOUT_MAP_COLUMNS)
    if (row.cells.has(column) && !own.includes(column))
      errors.push({
        row: row.row,
        column,
        message:
          payout === undefined
            ? 'belongs to a payout map: name it in payout (linear, tick or steps)'
            : `is not a column of a ${String(payout)} payout`,
      });
  return Object.fromEntries(
    Object.entries(row.fields).filter(([column]) => !(column in SHEET_COLUMNS) && !(column in COVER_COLUMNS)),
  ) as Fields<PhaseColumn>;
};

/** The rows of each cover, by peril, covers in the order the table first names them. */
const coversOf = (rows: readonly Row[], errors: PhaseTableError[]): Row[][] => {
  const byPeril = new Map<string, Row[]>();
  for (const row of rows) {
    const peril = row.cells.get('peril');
    if (peril === undefined) {
      errors.push({ row: row.row, column: 'peril', message: 'is required: it says which cover the phase is of' });
      continue;
    }
    byPeril.set(peril, [...(byPeril.get(peril) ?? []), row]);
  }
  return [...byPeril.values()];
};

export const readPhaseTable = (text: string): PhaseTableReading => {
  const records = parseRecords(text);
  if (!Array.isArray(records)) return { errors: [records] };
  const [header, ...body] = records;
  if (header === undefined) return { errors: [{ message: 'is empty: a header and one row per phase are needed' }] };
  const errors = headerErrors(header);
  if (errors.length > 0) return { errors };
  if (body.length === 0)
    return { errors: [{ row: 2, message: 'a sheet has at least one phase: no row follows the header' }] };
  const rows = readRows(header as Column[], body, errors);
  const sheet = sharedFields(Object.keys(SHEET_COLUMNS) as SheetColumn[], rows, errors);
  const covers = coversOf(rows, errors).map((coverRows) => ({
    cover: sharedFields(Object.keys(COVER_COLUMNS) as CoverColumn[], coverRows, errors),
    phases: coverRows.map((row) => phaseOf(row, errors)),
  }));
  return errors.length > 0 ? { errors } : { sheet: sheetOfFields(sheet, covers) };
};
