/** A sheet that breaks rules of TERM-SHEETS.md §2.2: one `errors[]` entry `{path, message, code}` per rule
 *  broken. Its shape (types, unknown fields, decimals) is the HTTP layer's 400 `validation_failed`. */
export const INVALID_TERM_SHEET = {
  description:
    'invalid_term_sheet: the sheet breaks rules of its language, one errors[] entry {path, message, code} per ' +
    'rule broken (trigger_exit_order, phases_overlap, window_outside_term, window_empty, ' +
    'limit_exceeds_sum_insured, limit_exceeds_cover_limit, steps_invalid, premature_settlement, ' +
    'blocks_misaligned, blocks_arity, normal_not_positive, aggregate_invalid, duplicate_peril, ' +
    'duplicate_phase, season_too_long, sowing_invalid)',
  codes: ['invalid_term_sheet'],
} as const;

/** A text/csv body that says no sheet at all (phase-table-body.ts); a sheet it says is checked as JSON's. */
export const MALFORMED_PHASE_TABLE = {
  description:
    'malformed_phase_table: the text/csv body is not a phase table (CSV, known columns, readable cells, one ' +
    "value per sheet and cover field, only the payout map's own columns), each error at rows.<row>.<column>",
  codes: ['malformed_phase_table'],
} as const;

/** Products of other organizations are not visible: the same 404 as one that does not exist. */
export const UNKNOWN_PRODUCT = {
  description: 'product_not_found: no such product (or version) in your organization',
  codes: ['product_not_found'],
} as const;

/** The built-in `default` is never registered, versioned or retired. */
export const BUILT_IN_PRODUCT = {
  description: 'product_exists: `default` is built in and never registered, versioned or retired',
  codes: ['product_exists'],
} as const;

/** Products are the insurer's terms: insurers (and admins) register, version and retire them. */
export const PRODUCT_WRITERS = ['insurer'] as const;
