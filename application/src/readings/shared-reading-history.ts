import type { Peril, PerilDataSource } from '@cropcover/contracts';
import type { IndexObservation, ReadReadingHistory } from '@cropcover/domain';
import { loadReadingHistory, type ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** Series kept at once: a season of daily readings is ~30 kB, so the cache stays within ~60 MB however
 *  many locations a pass walks through. */
const MAX_SERIES = 2_000;

/** A ReadReadingHistory that reads each (source, location, index) series over one range once and hands
 *  the same list to every later caller: the many policies of a monitor pass on one grid cell or station
 *  share one read. Keep one per pass, so a reading recorded since is seen by the next pass. The least
 *  recently used series goes first when the cache is full. */
export const sharedReadingHistory = (db: Kysely<ReadModels>): ReadReadingHistory => {
  const series = new Map<string, Promise<readonly IndexObservation[]>>();
  const seriesOf = (peril: Peril, data: PerilDataSource, from?: string, to?: string) => {
    const key = JSON.stringify([data.source_id, data.location, data.index, from ?? null, to ?? null]);
    const cached = series.get(key);
    if (cached) {
      series.delete(key);
      series.set(key, cached);
      return cached;
    }
    const loading = loadReadingHistory(db, { sources: { [peril]: data }, from, to }).then(
      (history) => history[peril] ?? [],
    );
    // A failed read is not kept: the next policy reads again.
    loading.catch(() => series.delete(key));
    series.set(key, loading);
    if (series.size > MAX_SERIES) series.delete(series.keys().next().value!);
    return loading;
  };
  return async ({ sources, from, to }) => {
    const perils = Object.entries(sources) as [Peril, PerilDataSource][];
    const lists = await Promise.all(perils.map(([peril, data]) => seriesOf(peril, data, from, to)));
    return Object.fromEntries(perils.map(([peril], at) => [peril, lists[at]]));
  };
};
