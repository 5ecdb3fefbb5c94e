import type { UnitPolygon } from '@cropcover/contracts';
import { cellsOfUnit } from './cells-of-unit';
import { boxOf, polygonsOf } from './unit-polygon';

/** What a list of a source's units shows of each polygon without the polygon itself (which can weigh
 *  megabytes): where it lies, how detailed it is, and how many cells of the source's grid it reads. */
export interface UnitOutline {
  /** [west, south, east, north], as a GeoJSON bbox (RFC 7946 §5). */
  readonly bbox: [number, number, number, number];
  readonly parts: number;
  readonly positions: number;
  /** The cells a grid source averages for the unit (INDEX-DATA §2.4); null on a source without a grid. */
  readonly cells: number | null;
}

export const unitOutline = (polygon: UnitPolygon, gridResolutionDeg: number | null): UnitOutline => {
  const { west, south, east, north } = boxOf(polygon);
  const parts = polygonsOf(polygon);
  return {
    bbox: [west, south, east, north],
    parts: parts.length,
    positions: parts.reduce((count, rings) => count + rings.reduce((inRing, ring) => inRing + ring.length, 0), 0),
    cells: gridResolutionDeg === null ? null : cellsOfUnit(polygon, gridResolutionDeg).length,
  };
};
