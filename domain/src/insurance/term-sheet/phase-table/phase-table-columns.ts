// The columns of a sheet's phase table (TERM-SHEETS.md §5.1, docs/term-sheets.md "The phase table"): one
// row per phase; the sheet's own fields and its cover's fields are columns of every row too, so the table
// alone is the whole sheet. Each column says how its cell reads when it is not JSON (a cell starting with
// `{`, `[` or `"` is JSON, for the nested parts and the rare object form of a date, level or aggregate).

export type CellKind = 'text' | 'number' | 'boolean';

/** The sheet's fields: the same on every row (the table carries them on its first row). */
export const SHEET_COLUMNS = {
  schema: 'text',
  name: 'text',
  note: 'text',
  season_from: 'text',
  season_to: 'text',
  unit: 'text',
  currency: 'text',
  sum_insured_minor: 'number',
  exposure_unit: 'text',
  value_minor: 'number',
  sheet_limit: 'number',
  rounding: 'text',
  pricing: 'text',
} as const satisfies Record<string, CellKind>;

/** The cover's fields: the same on every row of the cover; `peril` says which cover a row is a phase of. */
export const COVER_COLUMNS = {
  peril: 'text',
  phase_mode: 'text',
  index: 'text',
  reading: 'text',
  cover_limit: 'number',
  required: 'boolean',
  base_rate: 'number',
  exposure: 'text',
  irrigated_factor: 'number',
  sowing: 'text',
} as const satisfies Record<string, CellKind>;

/** The phase's fields, its payout map spread over `payout` (linear, tick or steps) and that map's own
 *  columns. */
export const PHASE_COLUMNS = {
  phase: 'text',
  from: 'text',
  to: 'text',
  day: 'text',
  blocks: 'text',
  aggregate: 'text',
  payout: 'text',
  direction: 'text',
  trigger: 'number',
  exit: 'number',
  per_unit: 'number',
  steps: 'text',
  limit: 'number',
  settle: 'text',
  min_coverage: 'number',
} as const satisfies Record<string, CellKind>;

export type SheetColumn = keyof typeof SHEET_COLUMNS;
export type CoverColumn = keyof typeof COVER_COLUMNS;
export type PhaseColumn = keyof typeof PHASE_COLUMNS;
export type Column = SheetColumn | CoverColumn | PhaseColumn;

export const COLUMN_KINDS: Readonly<Record<Column, CellKind>> = {
  ...SHEET_COLUMNS,
  ...COVER_COLUMNS,
  ...PHASE_COLUMNS,
};

/** The header, in the order the table is written: sheet, cover, phase. */
export const PHASE_TABLE_HEADER = Object.keys(COLUMN_KINDS) as Column[];

/** Which columns each payout map reads; a cell in another map's column is refused, never dropped. */
export const PAYOUT_COLUMNS = {
  linear: ['direction', 'trigger', 'exit'],
  tick: ['direction', 'trigger', 'per_unit'],
  steps: ['steps'],
} as const satisfies Record<string, readonly PhaseColumn[]>;

/** Every payout map's columns. */
export const PAYOUT_MAP_COLUMNS: readonly PhaseColumn[] = [...new Set(Object.values(PAYOUT_COLUMNS).flat())];

/** A row's values by column, as the sheet holds them (absent: the cell is empty). */
export type Fields<C extends Column> = Partial<Record<C, unknown>>;
