import type { ClimatologyPeriod } from '@cropcover/contracts';
import { climatologyDigest, dayNumber, locationNormals } from '@cropcover/domain';
import {
  type ClimatologyRequestRecord,
  type ComputedClimatology,
  loadSeriesReadings,
  type ReadModels,
  sourceLocationsAsOf,
} from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** The dates a climatology of these years reads: 1 January of the first to 31 December of the last, or of
 *  the year after for a window that wraps the year end (its period belongs to the year it starts in). */
export const climatologyDates = (
  period: ClimatologyPeriod,
  years: { readonly from: number; readonly to: number },
): { from: string; to: string } => {
  const wraps = typeof period === 'object' && 'window' in period && period.window.to < period.window.from;
  return { from: `${years.from}-01-01`, to: `${years.to + (wraps ? 1 : 0)}-12-31` };
};

/**
 * A requested climatology (INDEX-DATA §3), computed from the source's stored readings as they stood at
 * the job's start (each reading's latest revision recorded by then), one location at a time, into the
 * domain's exact normals; the version number is drawn when it is written.
 */
export const computeClimatology = async (
  db: Kysely<ReadModels>,
  request: ClimatologyRequestRecord & { readonly started_at: Date },
  progress: () => Promise<void>,
): Promise<ComputedClimatology> => {
  const source = await db
    .selectFrom('index_sources')
    .select(['index', 'cadence'])
    .where('source_id', '=', request.source_id)
    .executeTakeFirstOrThrow();
  const years = { from: request.year_from, to: request.year_to };
  const definition = {
    years,
    period: request.period,
    stat: request.stat,
    minYears: request.min_years,
    cadence: source.cadence,
  };
  const { from, to } = climatologyDates(request.period, years);
  const asOf = request.started_at;
  const locations = [];
  for (const location of await sourceLocationsAsOf(db, request.source_id, from, to, asOf)) {
    const readings = await loadSeriesReadings(db, {
      sourceId: request.source_id,
      location,
      index: source.index,
      from,
      to,
      asOf,
    });
    const days = new Map(readings.map((reading) => [dayNumber(reading.date), reading.value]));
    locations.push(locationNormals(definition, { location, days }));
    await progress();
  }
  const digest = climatologyDigest({
    source_id: request.source_id,
    name: request.name,
    years,
    period: request.period,
    stat: request.stat,
    min_years: request.min_years,
    locations,
  });
  return { digest, readings_as_of: asOf, locations };
};
