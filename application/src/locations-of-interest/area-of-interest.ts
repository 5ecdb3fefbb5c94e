import { type AreaOfInterest, type IndexSourceAreaOfInterest, MAX_AREA_OF_INTEREST_CELLS } from '@cropcover/contracts';
import { DomainError, gridCellCentresWithin, type RegisteredIndexSource, readingLocation } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';
import type { HistoryBackfills } from './history-backfills';

// INDEX-DATA §2.2: the owner of a grid source registers the area it keeps beyond what its policies read.
// The area replaces the one before, but a cell once of interest stays so: its history is held, and a
// policy may read it; dropping it would leave gaps that a later area would have to backfill again.

export interface AreaOfInterestRequest {
  readonly source: RegisteredIndexSource;
  readonly area: AreaOfInterest;
  readonly setBy: string;
  readonly now: Date;
}

const tooLarge = (cells: number) =>
  ProblemError.unprocessable(
    'area_of_interest_too_large',
    `The area covers ${cells} cells; an area of interest may cover at most ${MAX_AREA_OF_INTEREST_CELLS}. Nothing was changed.`,
  );

/** The cells of the source the area names: those whose centres lie in its box, or those it lists. */
const cellsOfArea = (source: RegisteredIndexSource, area: AreaOfInterest): string[] => {
  const resolution = source.resolutionDeg!;
  if ('bbox' in area) {
    const [west, south, east, north] = area.bbox;
    // At most one more cell per axis than the span holds: refused before any is listed.
    const bound = (Math.floor((east - west) / resolution) + 1) * (Math.floor((north - south) / resolution) + 1);
    if (bound > MAX_AREA_OF_INTEREST_CELLS * 4) throw tooLarge(bound);
    const cells = gridCellCentresWithin(resolution, { west, south, east, north }).map(({ cell }) => cell);
    if (cells.length > MAX_AREA_OF_INTEREST_CELLS) throw tooLarge(cells.length);
    return cells;
  }
  return [
    ...new Set(
      area.cells.map((posted, at) => {
        try {
          return readingLocation(source, posted);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          throw ProblemError.validationFailed([
            { path: `area_of_interest.cells.${at}`, message: `"${posted}" is not a point "lat,lon" of the grid` },
          ]);
        }
      }),
    ),
  ];
};

/** Records the area and makes its cells of interest, then starts their backfill; answers at once. */
export const setAreaOfInterest = async (
  db: Kysely<ReadModels>,
  history: HistoryBackfills,
  { source, area, setBy, now }: AreaOfInterestRequest,
): Promise<IndexSourceAreaOfInterest> => {
  if (source.kind !== 'grid')
    throw ProblemError.unprocessable(
      'not_a_grid_source',
      `Source ${source.sourceId} is a ${source.kind} source: only a grid source keeps an area of interest.`,
    );
  const cells = cellsOfArea(source, area);
  const counts = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('index_source_areas_of_interest')
      .values({ source_id: source.sourceId, area: JSON.stringify(area), set_by: setBy, set_at: now })
      .onConflict((conflict) =>
        conflict.column('source_id').doUpdateSet({ area: JSON.stringify(area), set_by: setBy, set_at: now }),
      )
      .execute();
    await sql`
      insert into index_cells_of_interest (source_id, cell, since)
      select ${source.sourceId}, cell, ${now} from unnest(${cells}::text[]) as cell
      on conflict (source_id, cell) do nothing`.execute(trx);
    const { rows } = await sql<{ total: number; backfilling: number }>`
      select count(*)::integer as total,
             count(*) filter (where held_at is null and cell = any(${cells}::text[]))::integer as backfilling
      from index_cells_of_interest where source_id = ${source.sourceId}`.execute(trx);
    return rows[0]!;
  });
  history.start(source, cells);
  return {
    source_id: source.sourceId,
    area_of_interest: area,
    cells_of_interest: counts.total,
    cells_backfilling: counts.backfilling,
    set_at: now.toISOString(),
  };
};
