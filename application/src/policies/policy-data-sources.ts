import type { DataSourceChoice, Peril, PolicyDataSources, TermSheet } from '@cropcover/contracts';
import {
  type Farm,
  type IndexSourceDefaults,
  indexSourceAggregate,
  indexSourceStream,
  namedSources,
  resolveDataSources,
  unitAreasAggregate,
  unitAreasStream,
} from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { loadAggregate } from '../handle-command';

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
 *  both come here. */
export const loadPolicyDataSources = async (
  eventStore: EventStore,
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
  return resolveDataSources({ ...query, named, sources, units }, query.sheet);
};
