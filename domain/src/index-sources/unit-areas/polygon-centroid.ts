import type { UnitPolygon } from '@cropcover/contracts';
import type { LatLon } from '../source-location';
import { polygonsOf } from './unit-polygon';

// The area centroid of a polygon in the plane of longitude and latitude (where the grid's cells are
// squares): each ring's shoelace moments, holes subtracting. Turf's centre of mass takes a MultiPolygon's
// convex hull instead, which can fall outside every part; this is the textbook formula over all parts.

const ringMoments = (ring: readonly (readonly number[])[]): { area: number; x: number; y: number } => {
  let area = 0;
  let x = 0;
  let y = 0;
  for (let at = 0; at + 1 < ring.length; at += 1) {
    const [x0 = 0, y0 = 0] = ring[at] ?? [];
    const [x1 = 0, y1 = 0] = ring[at + 1] ?? [];
    const cross = x0 * y1 - x1 * y0;
    area += cross;
    x += (x0 + x1) * cross;
    y += (y0 + y1) * cross;
  }
  return { area: area / 2, x: x / 6, y: y / 6 };
};

/** The centroid of the polygon's area; for a polygon of no area, the mean of its exterior vertices. */
export const polygonCentroid = (polygon: UnitPolygon): LatLon => {
  let area = 0;
  let x = 0;
  let y = 0;
  for (const [exterior = [], ...holes] of polygonsOf(polygon)) {
    // A ring's orientation is not checked on input (RFC 7946 only recommends it): exterior counts
    // positive, holes negative, whichever way each winds.
    const outer = ringMoments(exterior);
    const sign = Math.sign(outer.area);
    area += Math.abs(outer.area);
    x += sign * outer.x;
    y += sign * outer.y;
    for (const hole of holes) {
      const inner = ringMoments(hole);
      const innerSign = Math.sign(inner.area);
      area -= Math.abs(inner.area);
      x -= innerSign * inner.x;
      y -= innerSign * inner.y;
    }
  }
  if (area > 0) return { lon: x / area, lat: y / area };
  const vertices = polygonsOf(polygon).flatMap(([exterior = []]) => exterior.slice(0, -1));
  return {
    lon: vertices.reduce((sum, [lon = 0]) => sum + lon, 0) / vertices.length,
    lat: vertices.reduce((sum, [, lat = 0]) => sum + lat, 0) / vertices.length,
  };
};
