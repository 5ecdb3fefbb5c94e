import type { CellKind } from './phase-table-columns';

// One cell of the phase table, exactly: empty is absent; a cell starting with `{`, `[` or `"` is JSON (the
// nested parts, and a string that would otherwise read as something else); any other cell is read as its
// column's kind. Writing then reading a value gives the same JSON value back.

/** JSON's own number grammar: what a JSON body could have said, and nothing a float parser would also take
 *  (`0x10`, `Infinity`, ` 5`). */
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

const isJsonCell = (cell: string): boolean => cell.startsWith('{') || cell.startsWith('[') || cell.startsWith('"');

export type CellReading = { readonly value: unknown } | { readonly error: string };

export const readCell = (cell: string, kind: CellKind): CellReading | undefined => {
  if (cell === '') return undefined;
  if (isJsonCell(cell)) {
    try {
      return { value: JSON.parse(cell) };
    } catch {
      return { error: 'is not valid JSON (a cell starting with {, [ or " is read as JSON)' };
    }
  }
  if (kind === 'text') return { value: cell };
  if (kind === 'number') return JSON_NUMBER.test(cell) ? { value: Number(cell) } : { error: 'must be a number' };
  if (cell === 'true' || cell === 'false') return { value: cell === 'true' };
  return { error: 'must be true or false' };
};

/** A value as its cell: strings as they are unless they would read back otherwise; numbers in their
 *  shortest exact form; objects and arrays as JSON. */
export const writeCell = (value: unknown): string => {
  if (value === undefined) return '';
  if (typeof value === 'string') return value === '' || isJsonCell(value) ? JSON.stringify(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};
