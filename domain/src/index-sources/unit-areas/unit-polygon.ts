import type { UnitPolygon } from '@cropcover/contracts';
import type { LatLonBox } from '../source-location';

/** Each polygon's rings (exterior first, then holes), a Polygon being one. */
export const polygonsOf = (polygon: UnitPolygon): readonly (readonly (readonly number[])[])[][] =>
  polygon.type === 'Polygon' ? [polygon.coordinates] : polygon.coordinates;

/** The geometry alone, as Turf reads it (a request's optional bbox is not Turf's tuple type). */
export const turfGeometryOf = (polygon: UnitPolygon) =>
  polygon.type === 'Polygon'
    ? { type: 'Polygon' as const, coordinates: polygon.coordinates }
    : { type: 'MultiPolygon' as const, coordinates: polygon.coordinates };

/** The smallest box of longitudes and latitudes holding every position. */
export const boxOf = (polygon: UnitPolygon): LatLonBox => {
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const rings of polygonsOf(polygon)) {
    for (const [lon = 0, lat = 0] of rings.flat()) {
      south = Math.min(south, lat);
      west = Math.min(west, lon);
      north = Math.max(north, lat);
      east = Math.max(east, lon);
    }
  }
  return { south, west, north, east };
};
