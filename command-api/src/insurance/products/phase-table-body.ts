import { PHASE_TABLE_DESCRIPTION, type TextRequestBody } from '@cropcover/contracts';
import { DEFAULT_SHEET, type PhaseTableError, readPhaseTable, writePhaseTable } from '@cropcover/domain';
import { ProblemError } from '@cropcover/runtime';

// A term sheet sent as its phase table (text/csv, TERM-SHEETS.md §5.1) instead of JSON: read into the very
// JSON body the route declares, which is then validated as a JSON one is (400 for its shape, 422
// invalid_term_sheet for its rules). A table that says no sheet at all is 400 malformed_phase_table, each
// error at `rows.<row>.<column>` (the header is row 1).

const pathOf = ({ row, column }: PhaseTableError): string =>
  ['rows', row, column].filter((part) => part !== undefined).join('.');

const sheetOfPhaseTable = (text: string): unknown => {
  const reading = readPhaseTable(text);
  if ('sheet' in reading) return reading.sheet;
  throw new ProblemError({
    status: 400,
    code: 'malformed_phase_table',
    title: 'Bad request',
    detail: 'The body is not a phase table of a term sheet.',
    errors: reading.errors.map((error) => ({ path: pathOf(error), message: error.message })),
  });
};

/** The route's JSON body of the sheet a phase table says (and of the request's query). */
export const phaseTableBody = (bodyOf: (sheet: unknown, query: unknown) => unknown): TextRequestBody => ({
  mediaType: 'text/csv',
  description: PHASE_TABLE_DESCRIPTION,
  example: writePhaseTable(DEFAULT_SHEET),
  read: (text, query) => bodyOf(sheetOfPhaseTable(text), query),
});
