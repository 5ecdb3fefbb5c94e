import { scaleExact, scaleRounded } from '../../insurance/money/decimal';
import { gridCellAt, type LatLon } from '../source-location';
import type { SampledCells } from './sampled-cells';

// Bilinear sampling (INDEX-DATA §1 `sampling: bilinear`) on whole 10^-12 degrees, as cells are found:
// the weights are exact rationals over the cell size squared, so a value interpolated from 6-decimal
// readings is exact before its one rounding.

const PLACES = 12;
const UNIT = 10n ** BigInt(PLACES);
const SOUTH = -90n * UNIT;
const WEST = -180n * UNIT;
const ROUND_EARTH = 360n * UNIT;

/** ⌊a / b⌋ for a positive b (bigint division truncates toward zero). */
const floorDivision = (a: bigint, b: bigint): bigint => (a >= 0n || a % b === 0n ? a / b : a / b - 1n);

/**
 * The four cell centres of a grid of `resolutionDeg` around the point, with their bilinear weights: the
 * south-west, south-east, north-west and north-east neighbours, weighted (size − dx)(size − dy), dx(size
 * − dy), (size − dx)dy and dx·dy over size², dx and dy being the point's distance east and north of the
 * south-west centre. Longitude wraps at the antimeridian (the grid is global); north of the top row of
 * centres or south of the bottom one, the point reads that row alone (the other row's weights are 0).
 * A point on a line of centres gives two neighbours weight 0, and one on a centre gives three.
 */
export const bilinearNeighbours = (point: LatLon, resolutionDeg: number): SampledCells => {
  const size = scaleExact(resolutionDeg, PLACES);
  if (size === undefined || size <= 0n || (180n * UNIT) % size !== 0n) {
    throw new RangeError(`a grid resolution of ${resolutionDeg}° does not divide 180° into whole cells`);
  }
  const half = size / 2n;
  const rows = (180n * UNIT) / size;
  const columns = ROUND_EARTH / size;
  const lat = scaleRounded(point.lat, PLACES);
  const lon = scaleRounded(point.lon, PLACES);
  // Latitude held between the bottom and top rows of centres; the south row at most the one below the top.
  const lowest = SOUTH + half;
  const highest = SOUTH + (rows - 1n) * size + half;
  const northing = (lat < lowest ? lowest : lat > highest ? highest : lat) - lowest;
  const row = northing / size < rows - 1n ? northing / size : rows - 2n;
  const dy = northing - row * size;
  const column = floorDivision(lon - WEST - half, size);
  const dx = lon - WEST - half - column * size;
  const west = ((column % columns) + columns) % columns;
  const east = (west + 1n) % columns;
  const cell = (r: bigint, c: bigint): string => gridCellAt(resolutionDeg, { row: Number(r), column: Number(c) });
  return {
    cells: [
      { cell: cell(row, west), weight: (size - dx) * (size - dy) },
      { cell: cell(row, east), weight: dx * (size - dy) },
      { cell: cell(row + 1n, west), weight: (size - dx) * dy },
      { cell: cell(row + 1n, east), weight: dx * dy },
    ],
    denominator: size * size,
  };
};
