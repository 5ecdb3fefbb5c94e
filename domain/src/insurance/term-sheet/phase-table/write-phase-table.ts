import type { TermSheet } from '@cropcover/contracts';
import { stringify } from 'csv-stringify/sync';
import { writeCell } from './phase-table-cells';
import { type Column, PHASE_TABLE_HEADER } from './phase-table-columns';
import { coverFields, phaseFields, sheetFields } from './phase-table-fields';

/** A sheet as its phase table (TERM-SHEETS.md §5.1): a header, then one row per phase, covers in order. The
 *  sheet's fields are written on the first row only (a long note once, not per phase); each cover's on
 *  every row of the cover, so a row sorted or filtered away from the others still says its cover. */
export const writePhaseTable = (sheet: TermSheet): string => {
  const sheetCells = sheetFields(sheet);
  const rows = sheet.covers.flatMap((cover) =>
    cover.phases.map((phase): Partial<Record<Column, unknown>> => ({ ...coverFields(cover), ...phaseFields(phase) })),
  );
  return stringify([
    PHASE_TABLE_HEADER,
    ...rows.map((row, at) => {
      const cells: Partial<Record<Column, unknown>> = at === 0 ? { ...sheetCells, ...row } : row;
      return PHASE_TABLE_HEADER.map((column) => writeCell(cells[column]));
    }),
  ]);
};
