import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { LatLon } from '../source-location';
import type { UnitArea, UnitAreas } from './unit-areas';
import { turfGeometryOf } from './unit-polygon';

/** The unit whose polygon holds the point (its boundary included, its holes not); a point on the
 *  boundary of several, or inside overlapping ones, lies in the one with the lowest unit_id
 *  (INDEX-DATA §2.4). Undefined when no unit holds it. */
export const unitContaining = (units: UnitAreas, point: LatLon): UnitArea | undefined => {
  let found: UnitArea | undefined;
  for (const unit of units.values()) {
    if (found !== undefined && unit.unitId >= found.unitId) continue;
    if (booleanPointInPolygon([point.lon, point.lat], turfGeometryOf(unit.polygon))) found = unit;
  }
  return found;
};
