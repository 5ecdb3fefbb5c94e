import type { PerilDataSource, PolicyDataSources } from '@cropcover/contracts';
import {
  dateOfDay,
  dayNumber,
  type IndexObservation,
  type ReadingHistory,
  type ReadingHistoryQuery,
  type ReadReadingHistory,
  sampledCellsOf,
  sampledSeries,
} from '@cropcover/domain';
import { loadReadingVersions, loadSeriesColumns, type ReadModels, type SeriesColumns } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** Readings kept at once by default: 16 bytes each as columns, so 32 MiB, about 60 locations of 30 years
 *  of three daily series. */
export const DEFAULT_MAX_CACHED_READINGS = 2_000_000;

/** The readings versions of the locations some sources read, at one moment. */
export interface ReadingVersions {
  /** Equal for two moments only when none of those locations' readings changed between them. */
  readonly key: string;
  readonly byLocation: ReadonlyMap<string, bigint>;
}

export interface ReadingHistoryCache {
  /** Each peril's readings, from the cache while its location's readings version is unchanged. */
  readonly read: ReadReadingHistory;
  /** The versions now (one query), for a caller that keeps what it derives from the readings. */
  readonly versionsOf: (sources: PolicyDataSources) => Promise<ReadingVersions>;
  /** The readings as of those versions or later: what `read` does after reading the versions. */
  readonly readAt: (query: ReadingHistoryQuery, versions: ReadingVersions) => Promise<ReadingHistory>;
  /** Readings held now; never more than the bound it was made with. */
  readonly cachedReadings: () => number;
}

interface CachedSeries {
  readonly version: bigint;
  readonly columns: Promise<SeriesColumns>;
  /** Counted against the bound once loaded. */
  readings: number;
}

/** The one-location series a peril's data reads: its own, or each cell a sampled location weighs. */
const cellSeriesOf = (data: PerilDataSource): PerilDataSource[] => {
  if (data.sampling === undefined) return [data];
  const cells = new Set(sampledCellsOf(data.sampling).cells.map(({ cell }) => cell));
  return [...cells].map((cell) => ({ source_id: data.source_id, kind: data.kind, index: data.index, location: cell }));
};

const locationKey = (data: PerilDataSource): string => JSON.stringify([data.source_id, data.location]);
const seriesKey = (data: PerilDataSource): string => JSON.stringify([data.source_id, data.location, data.index]);

/** The first position whose day is on or after `day`. */
const firstOnOrAfter = (days: Int32Array, day: number): number => {
  let low = 0;
  let high = days.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (days[middle]! < day) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * A process's cache of reading histories, by (source, location, index) series, each kept with the
 * version of its location's readings it was read at (migration 0015: triggers change the version in
 * the transaction that changes a reading). Every read first reads the current versions of the
 * locations it needs, in one query, and reloads a series whose version moved; so a reading written and
 * acknowledged by any process is priced by the next read in every process. The version is read before
 * the readings, so a series may be newer than its version (then it is reloaded once more), never older.
 * A location without a version has no readings at all, and is not read. The least recently used series
 * goes first when the readings held would pass `maxReadings`; a series larger than that is read and not
 * kept.
 */
export const readingHistoryCache = (
  db: Kysely<ReadModels>,
  maxReadings: number = DEFAULT_MAX_CACHED_READINGS,
): ReadingHistoryCache => {
  const cached = new Map<string, CachedSeries>();
  let heldReadings = 0;
  // Dates as text, one string per day however many series and requests share it.
  const dates = new Map<number, string>();
  const dateText = (day: number): string => {
    let date = dates.get(day);
    if (date === undefined) {
      date = dateOfDay(day);
      dates.set(day, date);
    }
    return date;
  };

  const forget = (key: string, entry: CachedSeries): void => {
    if (cached.get(key) !== entry) return;
    cached.delete(key);
    heldReadings -= entry.readings;
  };

  const keep = (key: string, entry: CachedSeries, columns: SeriesColumns): void => {
    if (cached.get(key) !== entry) return;
    if (columns.days.length > maxReadings) {
      cached.delete(key);
      return;
    }
    entry.readings = columns.days.length;
    heldReadings += entry.readings;
    for (const [oldest, oldestEntry] of cached) {
      if (heldReadings <= maxReadings) break;
      forget(oldest, oldestEntry);
    }
  };

  const columnsOf = (data: PerilDataSource, version: bigint): Promise<SeriesColumns> => {
    const key = seriesKey(data);
    const known = cached.get(key);
    if (known?.version === version) {
      cached.delete(key);
      cached.set(key, known);
      return known.columns;
    }
    if (known) forget(key, known);
    const columns = loadSeriesColumns(db, { sourceId: data.source_id, location: data.location, index: data.index });
    const entry: CachedSeries = { version, columns, readings: 0 };
    cached.set(key, entry);
    columns.then(
      (loaded) => keep(key, entry, loaded),
      () => forget(key, entry),
    );
    return columns;
  };

  const observations = (columns: SeriesColumns, from?: string, to?: string): IndexObservation[] => {
    const first = from === undefined ? 0 : firstOnOrAfter(columns.days, dayNumber(from));
    const end = to === undefined ? columns.days.length : firstOnOrAfter(columns.days, dayNumber(to) + 1);
    const list: IndexObservation[] = new Array(Math.max(0, end - first));
    for (let at = first; at < end; at += 1) {
      list[at - first] = {
        date: dateText(columns.days[at]!),
        value: columns.values[at]!,
        revision: columns.revisions[at]!,
      };
    }
    return list;
  };

  const versionsOf = async (sources: PolicyDataSources): Promise<ReadingVersions> => {
    const locations = [
      ...new Map(
        Object.values(sources)
          .flatMap(cellSeriesOf)
          .map((data) => [locationKey(data), data]),
      ).values(),
    ];
    const byLocation = await loadReadingVersions(
      db,
      locations.map((data) => ({ sourceId: data.source_id, location: data.location })),
    );
    const key = JSON.stringify(
      locations.map((data) => [locationKey(data), String(byLocation.get(locationKey(data)) ?? 'none')]).sort(),
    );
    return { key, byLocation };
  };

  const readAt = async ({ sources, from, to }: ReadingHistoryQuery, versions: ReadingVersions) => {
    const perils = Object.entries(sources) as [string, PerilDataSource][];
    // Perils reading the same series share one list, as the pricing expects (it cuts a list once).
    const lists = new Map<string, Promise<readonly IndexObservation[]>>();
    for (const [, data] of perils) {
      const key = seriesKey(data);
      if (lists.has(key)) continue;
      const seriesAt = (cell: PerilDataSource): Promise<readonly IndexObservation[]> => {
        const version = versions.byLocation.get(locationKey(cell));
        return version === undefined
          ? Promise.resolve([])
          : columnsOf(cell, version).then((columns) => observations(columns, from, to));
      };
      const { sampling } = data;
      if (sampling === undefined) {
        lists.set(key, seriesAt(data));
        continue;
      }
      const cells = cellSeriesOf(data);
      lists.set(
        key,
        Promise.all(cells.map(seriesAt)).then((loaded) => {
          const byCell = new Map(cells.map((cell, at) => [cell.location, loaded[at]!]));
          return sampledSeries(sampledCellsOf(sampling), (cell) => byCell.get(cell) ?? []);
        }),
      );
    }
    const loaded = new Map(await Promise.all([...lists].map(async ([key, list]) => [key, await list] as const)));
    return Object.fromEntries(perils.map(([peril, data]) => [peril, loaded.get(seriesKey(data))!]));
  };

  const read: ReadReadingHistory = async (query) => readAt(query, await versionsOf(query.sources));

  return { read, versionsOf, readAt, cachedReadings: () => heldReadings };
};
