// Every `code` a problem answer of the API may carry, with the one HTTP status it is answered with. A
// route declares the codes it may answer under their statuses (route-contract.ts), and the domain's
// refusals and the HTTP layer's problems can name only codes listed here, so a misspelt code, or one
// declared under the wrong status, is a type error. Grouped by concept; add a code to its group.

export const PROBLEM_STATUSES = {
  // The HTTP layer: any route
  validation_failed: 400,
  malformed_json: 400,
  json_too_deep: 400,
  incomplete_body: 400,
  malformed_path: 400,
  malformed_request: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  forbidden: 403,
  organization_required: 403,
  not_found: 404,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  authentication_unavailable: 503,
  console_not_built: 503,
  database_unavailable: 503,

  // Writes: idempotency keys (POST) and appends that kept losing races
  invalid_idempotency_key: 400,
  idempotency_key_in_flight: 409,
  idempotency_key_reused: 422,
  concurrency_conflict: 409,

  // Reads: read-your-writes
  invalid_consistency_token: 400,

  // Audit: the verifiable log's checkpoints and proofs
  no_checkpoint: 404,
  beyond_tree: 422,

  // Farm registry
  farmer_profile_exists: 409,
  farmer_profile_not_found: 404,
  farmer_erased: 422,
  farm_exists: 409,
  not_farm_owner: 403,
  version_conflict: 409,
  precondition_failed: 412,
  field_exists: 409,
  farm_inactive: 422,
  access_grant_not_found: 404,
  access_expiry_past: 422,
  farmer_already_enrolled: 409,
  consent_in_future: 422,

  // Index data: sources and readings
  source_exists: 409,
  not_source_owner: 403,
  unknown_source: 422,
  unknown_location: 422,
  // Index files (INDEX-DATA.md §2.1)
  reading_out_of_bounds: 422,
  grid_mismatch: 422,
  unknown_variable: 422,
  unreadable_file: 422,
  storage_full: 503,
  location_not_covered: 422,
  source_index_mismatch: 422,
  source_not_found: 404,
  unit_exists: 409,
  too_many_units: 422,
  field_not_registered: 422,
  reading_in_future: 422,
  // Locations of interest and backfill (INDEX-DATA.md §2.2)
  not_a_grid_source: 422,
  area_of_interest_too_large: 422,
  history_backfilling: 503,

  // Index data: climatologies (INDEX-DATA §3)
  climatology_not_found: 404,
  climatology_name_taken: 409,
  no_readings_in_years: 422,
  years_not_past: 422,
  no_climatology: 422,
  // A sheet's blocks that are no period of the climatology, or a normal a percent or z-score cannot use.
  climatology_period: 422,
  normal_not_positive: 422,
  // A cover's blocks or sowing that do not fit its source's cadence: `source_period` blocks over a daily
  // source, calendar blocks or a sowing over a non-daily one (TERM-SHEETS.md §5).
  period_mismatch: 422,
  // A product insured per exposure unit quoted or issued without its exposure units.
  exposure_unit_missing: 422,

  // Covers: quote and issue
  invalid_term: 422,
  retroactive_cover: 422,
  invalid_perils: 422,
  invalid_currency: 422,
  invalid_amount: 422,
  known_loss: 422,
  uninsurable: 422,
  premium_too_small: 422,

  // Products: term sheets, their versions, and quote and issue on them (currency_mismatch is with
  // Programmes: one code, one meaning)
  invalid_term_sheet: 422,
  // A sheet's phase table (text/csv) that is no table of a sheet: not CSV, unknown columns, unreadable cells.
  malformed_phase_table: 400,
  product_exists: 409,
  product_not_found: 404,
  product_retired: 422,
  peril_not_in_product: 422,
  required_peril_missing: 422,
  term_not_product_season: 422,
  window_outside_term: 422,
  // The product backtest (TERM-SHEETS.md §5.1): a season not over yet; a sheet without a season, none given
  seasons_not_past: 422,
  season_missing: 422,
  product_backtest_not_found: 404,

  // Policies: evaluation, lapse, closing
  policy_exists: 409,
  as_of_in_future: 422,
  policy_not_evaluable: 422,
  policy_closed: 422,
  policy_not_lapsable: 422,
  settlement_period_open: 422,
  not_a_backtest: 422,

  // Programmes: capacity and exposure
  programme_exists: 409,
  programme_not_found: 404,
  backtest_not_found: 404,
  currency_mismatch: 422,
  capacity_exceeded: 422,
  capacity_below_committed: 422,

  // Reinsurance: treaties
  treaty_exists: 409,
  treaty_period_overlaps: 422,

  // Webhooks
  webhook_exists: 409,
  webhook_url_not_public: 422,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUSES;
export type ProblemStatus = (typeof PROBLEM_STATUSES)[ProblemCode];
/** The codes answered with `status`. */
export type ProblemCodeOf<S extends ProblemStatus> = {
  [C in ProblemCode]: (typeof PROBLEM_STATUSES)[C] extends S ? C : never;
}[ProblemCode];

/** The one title each status's problems carry (RFC 9457 `title`: the same for every occurrence). */
export const PROBLEM_TITLES: Readonly<Record<ProblemStatus, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal server error',
  503: 'Service unavailable',
};
