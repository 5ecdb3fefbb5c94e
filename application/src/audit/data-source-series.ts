import type { PerilDataSource } from '@cropcover/contracts';
import { type IndexObservation, sampledCellsOf, sampledSeries } from '@cropcover/domain';
import { loadSeriesReadings, type ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** The series a policy's data source read over [from, to] — as it stood at `asOf` when given — from the
 *  readings table: its location's, or for a bilinear point or a unit mean its cells' combined as the
 *  evaluation combined them. What the audit recomputes a recorded evaluation from. */
export const loadDataSourceSeries = async (
  db: Kysely<ReadModels>,
  data: Pick<PerilDataSource, 'source_id' | 'index' | 'location' | 'sampling'>,
  range: { readonly from: string; readonly to: string; readonly asOf?: Date },
): Promise<IndexObservation[]> => {
  const seriesAt = (location: string) =>
    loadSeriesReadings(db, { sourceId: data.source_id, location, index: data.index, ...range });
  if (data.sampling === undefined) return seriesAt(data.location);
  const sampled = sampledCellsOf(data.sampling);
  const cells = [...new Set(sampled.cells.map(({ cell }) => cell))];
  const lists = await Promise.all(cells.map(seriesAt));
  const byCell = new Map(cells.map((cell, at) => [cell, lists[at]!]));
  return sampledSeries(sampled, (cell) => byCell.get(cell) ?? []);
};
