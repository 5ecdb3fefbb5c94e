import { type IndexReading, type ProblemCode, READING_BOUNDS } from '@cropcover/contracts';
import {
  type ActorInRoles,
  canWriteReadings,
  DomainError,
  fieldLocation,
  type IndexSourceState,
  indexSourceAggregate,
  indexSourceStream,
  NO_UNIT_AREAS,
  organizationFieldSourceId,
  readingLocationWithUnits,
  type UnitAreas,
  unitAreasAggregate,
  unitAreasStream,
} from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { type FieldError, ProblemError } from '@cropcover/runtime';
import { loadAggregate } from '../handle-command';
import type { SourceReading } from './record-index-readings';

const problemOf = (status: number, code: ProblemCode, title: string, errors: FieldError[]): ProblemError =>
  new ProblemError({
    status,
    code,
    title,
    detail: `${errors.map((error) => `${error.path}: ${error.message}`).join('; ')}. Nothing was recorded.`,
    errors,
  });

interface LoadedSource {
  readonly state: IndexSourceState;
  /** Its unit areas: each unit_id is a location of the source (INDEX-DATA §2.4). */
  readonly units: UnitAreas;
}

const loadSources = async (
  eventStore: EventStore,
  readings: readonly IndexReading[],
): Promise<ReadonlyMap<string, LoadedSource>> => {
  const ids = [...new Set(readings.flatMap((reading) => (reading.source_id === undefined ? [] : [reading.source_id])))];
  return new Map(
    await Promise.all(
      ids.map(async (id) => {
        const [state, units] = await Promise.all([
          loadAggregate(eventStore, indexSourceStream(id), indexSourceAggregate),
          loadAggregate(eventStore, unitAreasStream(id), unitAreasAggregate),
        ]);
        return [id, { state, units }] as const;
      }),
    ),
  );
};

/**
 * The readings as stored, or why none is recorded (SPEC §7 Readings). The per-field shape writes the
 * caller organization's own field source; a reading by source needs a registered source (422
 * `unknown_source`) its caller may write (403 `not_source_owner`), a value within the source's index
 * bounds (400) and a location of that source (422 `unknown_location`: a station, a grid point, a field, or
 * one of its unit areas by unit_id). Every reading is checked before any is refused, so the sender fixes
 * them in one go; two readings meeting at one stored key are a 400.
 */
export const sourceReadingsOf = async (
  eventStore: EventStore,
  actor: ActorInRoles & { readonly organizationId: string },
  readings: readonly IndexReading[],
): Promise<SourceReading[]> => {
  const sources = await loadSources(eventStore, readings);
  const unknown: FieldError[] = [];
  const notOwned: FieldError[] = [];
  const invalid: FieldError[] = [];
  const unlocated: FieldError[] = [];
  const stored = readings.flatMap((reading, at): SourceReading[] => {
    const path = `readings.${at}`;
    const note = reading.source ?? null;
    if (reading.source_id === undefined) {
      return [
        {
          sourceId: organizationFieldSourceId(actor.organizationId),
          location: fieldLocation(reading.farm_id!, reading.field_id!),
          index: reading.index!,
          date: reading.date,
          value: reading.value,
          note,
        },
      ];
    }
    const { state, units } = sources.get(reading.source_id) ?? { state: undefined, units: NO_UNIT_AREAS };
    if (state?.status !== 'registered') {
      unknown.push({ path: `${path}.source_id`, message: `no index source ${reading.source_id}` });
      return [];
    }
    const { source } = state;
    if (!canWriteReadings(actor, source)) {
      notOwned.push({
        path: `${path}.source_id`,
        message: `source ${source.sourceId} belongs to another organization`,
      });
      return [];
    }
    if (reading.index !== undefined && reading.index !== source.index) {
      invalid.push({ path: `${path}.index`, message: `source ${source.sourceId} holds ${source.index}` });
      return [];
    }
    const { min, max } = READING_BOUNDS[source.index];
    if (reading.value < min || reading.value > max) {
      invalid.push({ path: `${path}.value`, message: `${source.index} must be from ${min} to ${max}` });
      return [];
    }
    try {
      const location = readingLocationWithUnits(source, units, reading.location!);
      return [
        { sourceId: source.sourceId, location, index: source.index, date: reading.date, value: reading.value, note },
      ];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      unlocated.push({ path: `${path}.location`, message: error.message });
      return [];
    }
  });
  if (unknown.length > 0) throw problemOf(422, 'unknown_source', 'Unknown index source', unknown);
  if (notOwned.length > 0) throw problemOf(403, 'not_source_owner', 'Not the source owner', notOwned);
  if (invalid.length > 0) throw ProblemError.validationFailed(invalid);
  if (unlocated.length > 0) throw problemOf(422, 'unknown_location', 'Unknown location', unlocated);
  refuseCollisions(stored);
  return stored;
};

// Two posted locations may name one stored one (two points of a grid cell): ambiguous, as a key given twice.
const refuseCollisions = (readings: readonly SourceReading[]): void => {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  readings.forEach((reading, at) => {
    const key = JSON.stringify([reading.sourceId, reading.location, reading.index, reading.date]);
    if (seen.has(key)) {
      errors.push({
        path: `readings.${at}`,
        message: `repeats ${reading.location} on ${reading.date} of an earlier reading`,
      });
    }
    seen.add(key);
  });
  if (errors.length > 0) throw ProblemError.validationFailed(errors);
};
