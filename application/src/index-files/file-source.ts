import {
  type ActorInRoles,
  canWriteReadings,
  indexSourceAggregate,
  indexSourceStream,
  type RegisteredIndexSource,
  type UnitAreas,
  unitAreasAggregate,
  unitAreasStream,
} from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { ProblemError } from '@cropcover/runtime';
import { loadAggregate } from '../handle-command';

/** The source a file is ingested into: registered (else 404) and the caller's to write (else 403
 *  `not_source_owner`), as for readings posted one by one. */
export const sourceForFiles = async (
  eventStore: EventStore,
  actor: ActorInRoles,
  sourceId: string,
): Promise<RegisteredIndexSource> => {
  const state = await loadAggregate(eventStore, indexSourceStream(sourceId), indexSourceAggregate);
  if (state.status !== 'registered') throw ProblemError.notFound(`No index source ${sourceId}.`);
  if (!canWriteReadings(actor, state.source))
    throw ProblemError.forbidden(`Source ${sourceId} belongs to another organization.`, 'not_source_owner');
  return state.source;
};

/** The source's unit areas, by unit_id: the locations a unit-level CSV names (INDEX-DATA §2.4). */
export const unitAreasOfSource = (eventStore: EventStore, sourceId: string): Promise<UnitAreas> =>
  loadAggregate(eventStore, unitAreasStream(sourceId), unitAreasAggregate);
