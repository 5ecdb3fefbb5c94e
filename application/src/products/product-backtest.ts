import type { ObservedOutcome, PolicyDataSources } from '@cropcover/contracts';
import {
  backtestLocation,
  backtestReadingRange,
  basisRisk,
  DomainError,
  type IndexObservation,
  locationNotBacktested,
  type PayoutAndLoss,
  rationalOfDecimal,
} from '@cropcover/domain';
import {
  type BacktestSourceLocation,
  loadReadingHistory,
  type ProductBacktestOutcome,
  type ProductBacktestRequestRecord,
  type ReadModels,
} from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import { withClimatologies } from '../policies/policy-data-sources';

// A requested product backtest (TERM-SHEETS.md §5.1), run one location at a time: each location's data as
// a policy's would read it — the series of its source's index at that location from the read store, and
// for covers reading normals the climatology version named (or the latest) with that location's numbers,
// as quote and issue freeze them — then the domain's backtest of the location through the one engine.

/** Each backtested peril reads the location from its source: the data a policy there would freeze. */
const locationSources = (request: ProductBacktestRequestRecord, at: BacktestSourceLocation): PolicyDataSources =>
  Object.fromEntries(
    request.perils.map((peril) => [
      peril,
      { source_id: at.source_id, location: at.series, kind: at.kind, index: at.index },
    ]),
  ) as PolicyDataSources;

/** The losses observed at each location, by season: grouped once (1,000 locations × 30 seasons of them). */
const lossesByLocation = (request: ProductBacktestRequestRecord) => {
  const byName = new Map<string, ObservedOutcome[]>();
  for (const outcome of request.basis?.outcomes ?? []) {
    const named = byName.get(outcome.location);
    if (named === undefined) byName.set(outcome.location, [outcome]);
    else named.push(outcome);
  }
  return (at: BacktestSourceLocation) =>
    new Map(
      (byName.get(at.location) ?? [])
        .filter((outcome) => outcome.source_id === undefined || outcome.source_id === at.source_id)
        .map((outcome) => [outcome.season, rationalOfDecimal(outcome.loss_ratio)]),
    );
};

export const computeProductBacktest = async (
  db: Kysely<ReadModels>,
  request: ProductBacktestRequestRecord,
  today: string,
  progress: () => Promise<void>,
): Promise<ProductBacktestOutcome> => {
  const { season } = request;
  const years = { from: request.year_from, to: request.year_to };
  const { from, to } = backtestReadingRange(season, years);
  const threshold = request.basis === null ? undefined : rationalOfDecimal(request.basis.loss_threshold);
  const lossesAt = lossesByLocation(request);
  const allPairs: PayoutAndLoss[] = [];
  const locations = [];
  for (const at of request.locations) {
    const data = locationSources(request, at);
    let withNormals: PolicyDataSources;
    try {
      withNormals = await withClimatologies(db, data, request.sheet);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'no_climatology') throw error;
      locations.push(
        locationNotBacktested(at.source_id, at.location, { code: 'no_climatology', detail: error.message }),
      );
      await progress();
      continue;
    }
    const history = await loadReadingHistory(db, { sources: withNormals, from, to });
    const readings: readonly IndexObservation[] = history[request.perils[0]!] ?? [];
    const { view, pairs } = backtestLocation({
      sourceId: at.source_id,
      location: at.location,
      sheet: request.sheet,
      perils: request.perils,
      season,
      years,
      today,
      readings,
      dataSources: withNormals,
      ...(threshold === undefined ? {} : { outcomes: { threshold, losses: lossesAt(at) } }),
    });
    allPairs.push(...pairs);
    locations.push(view);
    await progress();
  }
  return {
    summary: {
      locations: locations.length,
      locations_evaluated: locations.filter((location) => location.status === 'evaluated').length,
      ...(threshold === undefined ? {} : { basis_risk: basisRisk(allPairs, threshold) }),
    },
    locations,
  };
};
