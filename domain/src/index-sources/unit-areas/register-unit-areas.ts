import { MAX_UNITS_PER_SOURCE, type UnitAreaEvent, type UnitAreasRequest } from '@cropcover/contracts';
import type { ActorInRoles } from '../../actor';
import { DomainError } from '../../domain-error';
import type { IndexSourceState } from '../index-source';
import { canWriteReadings } from '../source-access';
import type { UnitAreas } from './unit-areas';

export interface RegisterUnitAreas {
  readonly actor: ActorInRoles;
  readonly sourceId: string;
  readonly request: UnitAreasRequest;
  readonly now: Date;
}

/** A unit sent again is the same unit only with the very name and polygon registered (compared member by
 *  member: the log keeps an event's members in canonical order, not as sent). */
const sameUnit = (unit: UnitAreasRequest['units'][number], registered: UnitAreas): boolean => {
  const known = registered.get(unit.unit_id);
  return (
    known !== undefined &&
    known.name === unit.name &&
    known.polygon.type === unit.polygon.type &&
    JSON.stringify(known.polygon.coordinates) === JSON.stringify(unit.polygon.coordinates) &&
    JSON.stringify(known.polygon.bbox ?? null) === JSON.stringify(unit.polygon.bbox ?? null)
  );
};

/**
 * The source's owner (its data providers, or an admin: whoever writes its readings) adds unit areas to it
 * (INDEX-DATA §2.4). A unit already registered with the same name and polygon is left as it is, so a
 * request may be sent again; one with another name or polygon is a 409 — policies already read it, and a
 * moved boundary would move fields between series. At most 10,000 units per source.
 */
export const registerUnitAreas = (
  command: RegisterUnitAreas,
  source: IndexSourceState,
  registered: UnitAreas,
): UnitAreaEvent[] => {
  const { actor, sourceId, request } = command;
  if (source.status !== 'registered') {
    throw new DomainError('not_found', 'source_not_found', `No index source ${sourceId}.`);
  }
  if (!canWriteReadings(actor, source.source)) {
    throw new DomainError('forbidden', 'not_source_owner', `source ${sourceId} belongs to another organization`);
  }
  const changed = request.units.filter((unit) => registered.has(unit.unit_id) && !sameUnit(unit, registered));
  if (changed.length > 0) {
    throw new DomainError(
      'conflict',
      'unit_exists',
      `units ${changed.map((unit) => unit.unit_id).join(', ')} are registered with another name or polygon`,
    );
  }
  const added = request.units.filter((unit) => !registered.has(unit.unit_id));
  if (registered.size + added.length > MAX_UNITS_PER_SOURCE) {
    throw new DomainError(
      'rejected',
      'too_many_units',
      `source ${sourceId} holds ${registered.size} units; ${added.length} more would pass ${MAX_UNITS_PER_SOURCE}`,
    );
  }
  if (added.length === 0) return [];
  return [
    {
      type: 'UnitAreasRegistered',
      data: {
        source_id: sourceId,
        units: added,
        registered_by: actor.subject,
        registered_at: command.now.toISOString(),
      },
    },
  ];
};
