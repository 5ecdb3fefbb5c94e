import { PayoutCurve, PayoutCurveRequest } from '@cropcover/contracts';
import { payoutCurve, utcDate } from '@cropcover/domain';
import { commandRoute } from '../../../command-route';
import { INVALID_TERM_SHEET, PRODUCT_WRITERS } from '../product-problems';

/** TERM-SHEETS.md §5.1: what index value X pays, for a designer drawing a sheet's payout map. A POST only
 *  because the sheet is the body; it stores nothing. */
export const payoutCurveRoute = commandRoute('POST /insurance/products/payout-curve', {
  summary: "A cover's payout curve: the amount due and severity at each index value of a range; stores nothing",
  description:
    'The sheet is validated as `POST /insurance/products/validate` does. With `phase`, that phase alone; ' +
    'without, every phase of the cover reading the same index value, the cover paying their sum within its ' +
    'limit. Windows resolve on the term given, else on the term a quote without one prices (`per_window_day` ' +
    "levels count its days). Amounts (major units) only when the sheet's amounts are money.",
  roles: PRODUCT_WRITERS,
  request: { body: PayoutCurveRequest },
  success: { status: 200, schema: PayoutCurve, description: 'The curve, one point per index value' },
  problems: {
    422: {
      description: `${INVALID_TERM_SHEET.description}; term_not_product_season: the term is not the sheet's season in one year; window_outside_term: the term does not hold the cover's windows; no_climatology: a phase's levels are percentiles of a location's climatology`,
      codes: ['invalid_term_sheet', 'term_not_product_season', 'window_outside_term', 'no_climatology'],
    },
  },
}).handle(async ({ deps, body }) => payoutCurve(body, utcDate(deps.clock.now())));
