import { DomainError } from '../../domain-error';
import type { RegisteredIndexSource } from '../index-source';
import { type InsuredField, type ResolvedLocation, readingLocation } from '../source-location';
import type { UnitAreas } from './unit-areas';
import { unitContaining } from './unit-containing';

/** Where a field reads a source that has unit areas (INDEX-DATA §2.4): the unit its polygon lies in. A
 *  field outside every unit is not covered by the source. */
export const fieldUnitLocation = (sourceId: string, units: UnitAreas, field: InsuredField): ResolvedLocation => {
  const unit = unitContaining(units, field.point);
  if (unit === undefined) {
    throw new DomainError(
      'rejected',
      'location_not_covered',
      `no unit area of index source ${sourceId} holds field ${field.fieldId}`,
    );
  }
  return { location: unit.unitId };
};

/** The location a reading posted under `posted` is stored under: one of the source's units by its
 *  unit_id (a unit-level series its producer aggregated), else as `readingLocation` says. */
export const readingLocationWithUnits = (source: RegisteredIndexSource, units: UnitAreas, posted: string): string =>
  units.has(posted) ? posted : readingLocation(source, posted);
