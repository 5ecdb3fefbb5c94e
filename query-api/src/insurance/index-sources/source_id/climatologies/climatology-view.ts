import type { Climatology, ClimatologyQuery } from '@cropcover/contracts';
import { loadClimatology, type ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** A version of a climatology as GET shows it, with a page of its locations (or the one asked for);
 *  undefined when the source has no such name or version. */
export const climatologyView = async (
  db: Kysely<ReadModels>,
  sourceId: string,
  name: string,
  version: number | undefined,
  query: ClimatologyQuery,
): Promise<Climatology | undefined> => {
  const loaded = await loadClimatology(db, {
    sourceId,
    name,
    ...(version === undefined ? {} : { version }),
    ...(query.location === undefined ? {} : { location: query.location }),
    page: query.page,
    pageSize: query.page_size,
  });
  if (loaded === undefined) return undefined;
  const { climatology: row, locations, total } = loaded;
  return {
    source_id: row.source_id,
    name: row.name,
    version: row.version,
    digest: row.digest,
    years: { from: row.year_from, to: row.year_to },
    period: row.period,
    stat: row.stat,
    min_years: row.min_years,
    readings_as_of: row.readings_as_of.toISOString(),
    computed_at: row.computed_at.toISOString(),
    organization_id: row.organization_id,
    locations,
    total,
    page: query.page,
    page_size: query.page_size,
  };
};

export const CLIMATOLOGY_READ_RULES =
  'Every authenticated organization reads a source’s climatologies, as its readings. Locations in order, ' +
  'a page at a time; ?location= gives one. A location’s period without a normal (fewer complete periods ' +
  'than min_years) shows its n with null figures.';
