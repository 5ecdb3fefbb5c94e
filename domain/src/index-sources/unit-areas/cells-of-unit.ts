import type { UnitPolygon } from '@cropcover/contracts';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { gridCellCentresWithin, gridCellOf } from '../source-location';
import { polygonCentroid } from './polygon-centroid';
import { boxOf, turfGeometryOf } from './unit-polygon';

/**
 * The cells of a grid of `resolutionDeg` a unit area reads (INDEX-DATA §2.4): those whose centres lie
 * inside its polygon (a centre on its boundary counts as inside, holes excluded), south to north and west
 * to east; a unit holding no cell centre reads the one cell containing its centroid. What a `unit_mean`
 * source averages for the unit, with equal weights.
 */
export const cellsOfUnit = (polygon: UnitPolygon, resolutionDeg: number): string[] => {
  const geometry = turfGeometryOf(polygon);
  const inside = gridCellCentresWithin(resolutionDeg, boxOf(polygon))
    .filter(({ centre }) => booleanPointInPolygon([centre.lon, centre.lat], geometry))
    .map(({ cell }) => cell);
  return inside.length > 0 ? inside : [gridCellOf(resolutionDeg, polygonCentroid(polygon))];
};
