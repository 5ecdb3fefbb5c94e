import { loadAggregate, loadStream } from '@cropcover/application';
import { ProductBacktestJob, ProductBacktestRequest } from '@cropcover/contracts';
import {
  indexSourceAggregate,
  indexSourceStream,
  planProductBacktest,
  productAggregate,
  productStreamId,
  productToBacktest,
  type RegisteredIndexSource,
  readingLocationWithUnits,
  type UnitAreas,
  unitAreasAggregate,
  unitAreasStream,
  utcDate,
} from '@cropcover/domain';
import { recordProductBacktestRequest } from '@cropcover/read-store';
import { commandContextOf } from '../../../command-context';
import { commandRoute } from '../../../command-route';
import { newResourceId } from '../../../idempotency/resource-id';
import { INVALID_TERM_SHEET, PRODUCT_WRITERS, UNKNOWN_PRODUCT } from '../product-problems';

/** TERM-SHEETS.md §5.1: what a sheet would have paid at many locations over past seasons, through the one
 *  payout engine, as a job a monitor runs; with observed losses, its basis risk. Everything the job needs
 *  is checked and frozen here (the product's version as it is now), so a bad request stores nothing. */
export const requestProductBacktestRoute = commandRoute('POST /insurance/products/backtest', {
  summary: 'Backtest a sheet or product over locations and past seasons (a job)',
  description:
    'Give `sheet` inline or `product` (the version named, retired or not; else the latest active). Each ' +
    'location is read from its source as a policy there would read it; covers reading normals take the ' +
    'climatology named (or its latest version) at that location, and a location without one is reported, ' +
    'not failed. Per location and season: each cover’s index, amount due and completeness; per location: ' +
    'average loss cost, payout frequency and worst season over the seasons every cover read completely. With ' +
    '`outcomes` and `loss_threshold`: Spearman’s rank correlation of payouts and losses and the false ' +
    'negative and positive frequencies, per location and overall. Follow the job at Location.',
  roles: PRODUCT_WRITERS,
  request: { body: ProductBacktestRequest },
  success: { status: 202, schema: ProductBacktestJob, description: 'Queued; follow it at Location' },
  problems: {
    404: {
      description: `${UNKNOWN_PRODUCT.description}; source_not_found: a location's source is not registered`,
      codes: ['product_not_found', 'source_not_found'],
    },
    422: {
      description:
        `${INVALID_TERM_SHEET.description}; peril_not_in_product: perils names a cover the sheet lacks; ` +
        'season_missing: the sheet names no season and the request gives none; term_not_product_season: the ' +
        'season given is not the sheet’s; invalid_term: the season is over 366 days; window_outside_term: the ' +
        'season does not hold the covers’ windows; seasons_not_past: the last season is not over; ' +
        'source_index_mismatch: a location’s source does not read a backtested cover’s index; ' +
        'unknown_location: a location is no location of its source',
      codes: [
        'invalid_term_sheet',
        'peril_not_in_product',
        'season_missing',
        'term_not_product_season',
        'invalid_term',
        'window_outside_term',
        'seasons_not_past',
        'source_index_mismatch',
        'unknown_location',
      ],
    },
  },
}).handle(async ({ deps, body, req, res, refuse, organizationId }) => {
  const context = commandContextOf(req, deps.clock.now());
  const product =
    body.product === undefined
      ? undefined
      : productToBacktest(
          (
            await loadStream(
              deps.eventStore,
              productStreamId(organizationId, body.product.product_id),
              productAggregate,
            )
          ).state,
          body.product,
        );
  const plan = planProductBacktest(body, product, utcDate(context.now));
  const covers = plan.sheet.covers.filter((cover) => plan.perils.includes(cover.peril));
  const sources = new Map<string, { source: RegisteredIndexSource; units: UnitAreas }>();
  for (const sourceId of new Set(body.locations.map((location) => location.source_id))) {
    const state = await loadAggregate(deps.eventStore, indexSourceStream(sourceId), indexSourceAggregate);
    if (state.status !== 'registered') throw refuse('source_not_found', `No index source ${sourceId}.`);
    const other = covers.find((cover) => cover.reading !== state.source.index);
    if (other !== undefined) {
      throw refuse(
        'source_index_mismatch',
        `source ${sourceId} reads ${state.source.index}; the ${other.peril} cover reads ${other.reading}`,
      );
    }
    const units = await loadAggregate(deps.eventStore, unitAreasStream(sourceId), unitAreasAggregate);
    sources.set(sourceId, { source: state.source, units });
  }
  const request = {
    job_id: newResourceId(res),
    organization_id: organizationId,
    product: plan.product,
    sheet: plan.sheet,
    perils: plan.perils,
    season: plan.season,
    year_from: plan.years.from,
    year_to: plan.years.to,
    locations: body.locations.map((location) => {
      const { source, units } = sources.get(location.source_id)!;
      // The series a policy there reads: a posted point's grid cell, a station, a unit (422 unknown_location).
      const series = readingLocationWithUnits(source, units, location.location);
      return { ...location, kind: source.kind, index: source.index, series };
    }),
    basis:
      body.outcomes === undefined || body.loss_threshold === undefined
        ? null
        : { outcomes: body.outcomes, loss_threshold: body.loss_threshold },
    requested_by: context.actor.subject,
    requested_at: context.now,
  };
  // A keyed retry finds its first run's request already there.
  await recordProductBacktestRequest(deps.db, request);
  res.location(`/insurance/products/backtests/${request.job_id}`);
  return {
    job_id: request.job_id,
    status: 'queued' as const,
    requested_at: context.now.toISOString(),
    completed_at: null,
    product: plan.product,
    perils: [...plan.perils],
    season: plan.season,
    seasons: plan.years,
    ...(plan.sheet.amounts.unit === 'minor' ? { currency: plan.sheet.amounts.currency } : {}),
    error: null,
    result: null,
  };
});
