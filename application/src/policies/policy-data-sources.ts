import type { DataSourceChoice, Peril, PerilDataSource, PolicyDataSources, TermSheet } from '@cropcover/contracts';
import {
  cellsReadBy,
  climatologyNormalsFor,
  coverClimatology,
  DEFAULT_SHEET,
  DomainError,
  type Farm,
  type IndexSourceDefaults,
  indexSourceAggregate,
  indexSourceStream,
  namedSources,
  productCover,
  resolveDataSources,
  unitAreasAggregate,
  unitAreasStream,
} from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { loadClimatology, type ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import { loadAggregate } from '../handle-command';
import type { HistoryBackfills } from '../locations-of-interest/history-backfills';

export interface PolicyDataQuery {
  readonly organizationId: string;
  readonly farm: Farm;
  readonly fieldId: string;
  readonly perils: readonly Peril[];
  readonly choice: DataSourceChoice | undefined;
  readonly defaults: IndexSourceDefaults;
  /** The sheet whose covers say which index each peril reads; the `default` product's when absent. */
  readonly sheet?: TermSheet;
}

/** The data each peril of a cover reads: the named sources and their unit areas are read from the log, so
 *  a source registered a moment ago is found, and the location is resolved from the field. Quote and issue
 *  both come here; each grid location they resolve becomes of interest to its source and its history is
 *  held before they read it (INDEX-DATA §2.2). */
export const loadPolicyDataSources = async (
  eventStore: EventStore,
  history: HistoryBackfills,
  db: Kysely<ReadModels>,
  query: PolicyDataQuery,
): Promise<PolicyDataSources> => {
  const named = namedSources(query.perils, query.choice, query.defaults, query.sheet);
  const ids = [...new Set(Object.values(named))];
  const sources = new Map(
    await Promise.all(
      ids.map(
        async (id) => [id, await loadAggregate(eventStore, indexSourceStream(id), indexSourceAggregate)] as const,
      ),
    ),
  );
  const units = new Map(
    await Promise.all(
      ids.map(async (id) => [id, await loadAggregate(eventStore, unitAreasStream(id), unitAreasAggregate)] as const),
    ),
  );
  const resolved = resolveDataSources({ ...query, named, sources, units }, query.sheet);
  await Promise.all(
    Object.values(resolved).map(async (data) => {
      const state = data === undefined ? undefined : sources.get(data.source_id);
      if (data === undefined || state?.status !== 'registered') return;
      await history.hold(state.source, cellsReadBy(state.source, data.location, units.get(data.source_id)));
    }),
  );
  return withClimatologies(db, resolved, query.sheet ?? DEFAULT_SHEET);
};

/** Each peril whose cover reads its blocks against a climatology gets the version named (or the latest)
 *  of its source, with the numbers of its location: what the policy freezes (INDEX-DATA §3). */
export const withClimatologies = async (
  db: Kysely<ReadModels>,
  resolved: PolicyDataSources,
  sheet: TermSheet,
): Promise<PolicyDataSources> => {
  const entries = await Promise.all(
    Object.entries(resolved).map(async ([peril, data]): Promise<[string, PerilDataSource | undefined]> => {
      const named = data === undefined ? undefined : coverClimatology(productCover(sheet, peril as Peril));
      if (data === undefined || named === undefined) return [peril, data];
      const found = await loadClimatology(db, {
        sourceId: data.source_id,
        name: named.name,
        ...(named.version === undefined ? {} : { version: named.version }),
        location: data.location,
        page: 1,
        pageSize: 1,
      });
      if (found === undefined) {
        const version = named.version === undefined ? '' : ` version ${named.version}`;
        throw new DomainError(
          'rejected',
          'no_climatology',
          `source ${data.source_id} has no climatology ${named.name}${version} (${peril} reads its normals)`,
          [{ path: 'data_sources', message: `no climatology ${named.name}${version}`, peril }],
        );
      }
      const { climatology, locations } = found;
      const frozen = climatologyNormalsFor({ ...climatology, locations }, data.location);
      return [peril, { ...data, climatology: frozen }];
    }),
  );
  return Object.fromEntries(entries) as PolicyDataSources;
};
