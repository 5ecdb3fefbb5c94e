/** Why a cover cannot be quoted or issued: the farm, the terms, the data it would read (`resolveDataSources`)
 *  and its price (`priceCover`), as quote and issue check them alike. */
export const COVER_REFUSED = {
  description:
    'The cover cannot be written: farm_inactive, invalid_perils, invalid_term, retroactive_cover, ' +
    'invalid_currency, invalid_amount, known_loss, uninsurable, premium_too_small, or its data ' +
    '(unknown_source, source_index_mismatch, field_not_registered, location_not_covered), or the product ' +
    '(peril_not_in_product, required_peril_missing, term_not_product_season, window_outside_term — with ' +
    "errors[] {path, message, code}, one per window of the product's sheet the term cannot hold, path from " +
    "the sheet's root —, currency_mismatch, product_retired), or the climatology its blocks read against " +
    '(no_climatology: none on the source, or no normal at the location — errors[] names it; ' +
    'climatology_period: a block of the term is no period of it, or it holds the other stat; ' +
    'normal_not_positive: a percent of normal or a z-score over a normal or deviation of 0), or ' +
    'period_mismatch (source_period blocks over a daily source; calendar blocks or a sowing over a non-daily ' +
    'one), or, for a ' +
    'product insured per exposure unit, exposure_unit_missing (no exposure_units) or invalid_amount ' +
    '(sum_insured is not what the exposure units make)',
  codes: [
    'farm_inactive',
    'invalid_perils',
    'invalid_term',
    'retroactive_cover',
    'invalid_currency',
    'invalid_amount',
    'known_loss',
    'uninsurable',
    'premium_too_small',
    'unknown_source',
    'source_index_mismatch',
    'field_not_registered',
    'location_not_covered',
    'peril_not_in_product',
    'required_peril_missing',
    'term_not_product_season',
    'window_outside_term',
    'currency_mismatch',
    'product_retired',
    'no_climatology',
    'climatology_period',
    'normal_not_positive',
    'period_mismatch',
    'exposure_unit_missing',
  ],
} as const;

/** The farm, or the product version a quote or issue names, is not found (other organizations' products
 *  are not visible). */
export const UNKNOWN_FARM_OR_PRODUCT = {
  description:
    'not_found: no such farm, or no live insurance grant on it; product_not_found: no such product or version in your organization',
  codes: ['not_found', 'product_not_found'],
} as const;
