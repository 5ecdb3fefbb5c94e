import { DEFAULT_STATION_RADIUS_KM, FIELD_ID_PATTERN, type Station } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { scaleExact, scaleRounded, unscale } from '../insurance/money/decimal';
import type { RegisteredIndexSource } from './index-source';

// Where a field reads its index in a source, and where a posted reading is stored. A location is text
// frozen into a policy and matched against readings, so it must come out the same every time: grid
// cells are computed on whole numbers of 10^-12 degree read from a coordinate's shortest decimal text,
// never with binary fractions (0.1 + 0.2 style error would put a point on a cell edge in the wrong
// cell). A coordinate with more than 12 decimals (below 0.1 mm) is rounded half-up to 12 first.

export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

/** A field's location: its farm and field ids; a field id never contains '/'. */
export const fieldLocation = (farmId: string, fieldId: string): string => `${farmId}/${fieldId}`;

const PLACES = 12;
const UNIT = 10n ** BigInt(PLACES);
const SOUTH = -90n * UNIT;
const NORTH = 90n * UNIT;
const WEST = -180n * UNIT;
const EAST = 180n * UNIT;

/** A point in whole 10^-12 degrees. */
interface ScaledPoint {
  readonly lat: bigint;
  readonly lon: bigint;
}

const isOnEarth = ({ lat, lon }: ScaledPoint): boolean => lat >= SOUTH && lat <= NORTH && lon >= WEST && lon <= EAST;

const cellSizeOf = (resolutionDeg: number | null): bigint => {
  // A registered grid always has a resolution that passed GridResolution; anything else is a bug.
  const size = resolutionDeg === null ? undefined : scaleExact(resolutionDeg, PLACES);
  if (size === undefined || size <= 0n || (NORTH - SOUTH) % size !== 0n) {
    throw new RangeError(`a grid resolution of ${resolutionDeg}° does not divide 180° into whole cells`);
  }
  return size;
};

/** The south-west corner of the cell holding the point. Cells are half-open, [min, min + size) on both
 *  axes, so a point on an edge belongs to the cell north or east of it; the north pole has no cell above
 *  it and belongs to the top row, and longitude 180 is the antimeridian, −180. */
const cellCorner = (size: bigint, point: ScaledPoint): ScaledPoint => {
  const topRow = (NORTH - SOUTH) / size - 1n;
  const row = (point.lat - SOUTH) / size;
  const column = ((point.lon - WEST) % (EAST - WEST)) / size;
  return { lat: SOUTH + (row < topRow ? row : topRow) * size, lon: WEST + column * size };
};

/** Shortest decimal text of a scaled value: no trailing zeros, no point for whole degrees, never "-0". */
const decimalText = (scaled: bigint): string => {
  const magnitude = scaled < 0n ? -scaled : scaled;
  const fraction = (magnitude % UNIT).toString().padStart(PLACES, '0').replace(/0+$/, '');
  return `${scaled < 0n ? '-' : ''}${magnitude / UNIT}${fraction === '' ? '' : `.${fraction}`}`;
};

const cellId = (size: bigint, point: ScaledPoint): string => {
  const corner = cellCorner(size, point);
  return `${decimalText(corner.lat)},${decimalText(corner.lon)}`;
};

const scaledPoint = (point: LatLon): ScaledPoint => ({
  lat: scaleRounded(point.lat, PLACES),
  lon: scaleRounded(point.lon, PLACES),
});

/** The id `"<lat_min>,<lon_min>"` of the cell of a grid of `resolutionDeg` holding the point: its
 *  south-west corner as shortest decimal text (resolution 0.05, (−1.3712, 36.8219) → "-1.4,36.8"). */
export const gridCellOf = (resolutionDeg: number | null, point: LatLon): string => {
  const scaled = scaledPoint(point);
  if (!isOnEarth(scaled)) throw new RangeError(`(${point.lat}, ${point.lon}) is not a point on Earth`);
  return cellId(cellSizeOf(resolutionDeg), scaled);
};

export interface LatLonBox {
  readonly south: number;
  readonly west: number;
  readonly north: number;
  readonly east: number;
}

export interface GridCellCentre {
  /** The cell's id, as `gridCellOf` names it. */
  readonly cell: string;
  readonly centre: LatLon;
}

/** ⌈a / b⌉ for a positive b (bigint division truncates toward zero). */
const ceilingDivision = (a: bigint, b: bigint): bigint => (a > 0n ? (a + b - 1n) / b : a / b);
/** ⌊a / b⌋ for a positive b. */
const floorDivision = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -ceilingDivision(-a, b));

/** The cells of a grid of `resolutionDeg` whose centres lie in the box, edges included, row by row from
 *  the south-west: the candidates a unit area's polygon is tested against. Centres are computed on
 *  10^-12 degrees, so a cell's id is the one `gridCellOf` gives for any point of it. */
export const gridCellCentresWithin = (resolutionDeg: number | null, box: LatLonBox): GridCellCentre[] => {
  const size = cellSizeOf(resolutionDeg);
  const half = size / 2n;
  const south = scaleRounded(box.south, PLACES);
  const north = scaleRounded(box.north, PLACES);
  const west = scaleRounded(box.west, PLACES);
  const east = scaleRounded(box.east, PLACES);
  // The rows (columns) whose centre, corner + size/2, lies within [south, north] ([west, east]).
  const firstRow = ceilingDivision(south - SOUTH - half, size);
  const lastRow = floorDivision(north - SOUTH - half, size);
  const firstColumn = ceilingDivision(west - WEST - half, size);
  const lastColumn = floorDivision(east - WEST - half, size);
  const cells: GridCellCentre[] = [];
  for (let row = firstRow; row <= lastRow; row += 1n) {
    const corner = SOUTH + row * size;
    for (let column = firstColumn; column <= lastColumn; column += 1n) {
      const left = WEST + column * size;
      cells.push({
        cell: `${decimalText(corner)},${decimalText(left)}`,
        centre: { lat: unscale(corner + half, PLACES), lon: unscale(left + half, PLACES) },
      });
    }
  }
  return cells;
};

/** Mean Earth radius (IUGG), in km. */
const EARTH_RADIUS_KM = 6371.0088;

const radians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance by the haversine formula. The longitude difference enters only through
 *  sin²(Δλ/2), so two points either side of the antimeridian are as close as they look on a globe. */
export const distanceKm = (from: LatLon, to: LatLon): number => {
  const halfLat = Math.sin(radians(to.lat - from.lat) / 2);
  const halfLon = Math.sin(radians(to.lon - from.lon) / 2);
  const h = halfLat ** 2 + Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * halfLon ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
};

export interface NearestStation {
  readonly station: Station;
  readonly distanceKm: number;
}

/** The station nearest the point within `radiusKm` (inclusive), or undefined when none is that close.
 *  Two stations at the same distance: the smaller station_id, so the choice never depends on the order
 *  the stations were registered in. */
export const nearestStation = (
  stations: readonly Station[],
  radiusKm: number,
  point: LatLon,
): NearestStation | undefined => {
  let nearest: NearestStation | undefined;
  for (const station of stations) {
    const distance = distanceKm(point, station);
    if (distance > radiusKm) continue;
    const closer =
      nearest === undefined ||
      distance < nearest.distanceKm ||
      (distance === nearest.distanceKm && station.station_id < nearest.station.station_id);
    if (closer) nearest = { station, distanceKm: distance };
  }
  return nearest;
};

export interface InsuredField {
  readonly farmId: string;
  readonly fieldId: string;
  readonly point: LatLon;
}

export interface ResolvedLocation {
  readonly location: string;
  /** Station sources: how far the field is from its station, in km to the metre. */
  readonly distanceKm?: number;
}

/** Where a field reads its index in the source: the grid cell holding the field, the nearest station
 *  within the source's radius, or the field itself. A field no station covers cannot be insured on it. */
export const resolveLocation = (source: RegisteredIndexSource, field: InsuredField): ResolvedLocation => {
  switch (source.kind) {
    case 'grid':
      return { location: gridCellOf(source.resolutionDeg, field.point) };
    case 'station': {
      const radiusKm = source.radiusKm ?? DEFAULT_STATION_RADIUS_KM;
      const nearest = nearestStation(source.stations, radiusKm, field.point);
      if (!nearest) {
        throw new DomainError(
          'rejected',
          'location_not_covered',
          `no station of index source ${source.sourceId} lies within ${radiusKm} km of field ${field.fieldId}`,
        );
      }
      return { location: nearest.station.station_id, distanceKm: Math.round(nearest.distanceKm * 1000) / 1000 };
    }
    case 'field':
      return { location: fieldLocation(field.farmId, field.fieldId) };
  }
};

// "lat,lon" as plain decimal text: what a grid reading is posted under.
const POSTED_POINT = /^(-?)(\d{1,3})(?:\.(\d{1,30}))?,(-?)(\d{1,3})(?:\.(\d{1,30}))?$/;

/** Decimal text read straight into 10^-12 degrees (rounded half-up beyond, like a number's), no float. */
const scaledText = (sign: string, whole: string, fraction = ''): bigint => {
  const rounding = (fraction[PLACES] ?? '0') >= '5' ? 1n : 0n;
  const magnitude = BigInt(whole) * UNIT + BigInt(fraction.slice(0, PLACES).padEnd(PLACES, '0')) + rounding;
  return sign === '-' ? -magnitude : magnitude;
};

/** The four cells of a grid of `resolutionDeg` whose centres are nearest a point posted as "lat,lon"
 *  (INDEX-DATA §1, bilinear sampling), south-west, south-east, north-west, north-east: the cells of the
 *  centres either side of it on each axis, computed on 10^-12 degrees like every cell id. A point on a
 *  centre's row or column takes that centre and the next one north or east (its weight there is 0). Near a
 *  pole the rows are clamped to the grid; columns wrap at the antimeridian. */
export const cellsAroundPoint = (resolutionDeg: number | null, posted: string): string[] => {
  const match = POSTED_POINT.exec(posted);
  if (!match) throw new RangeError(`"${posted}" is not a point "lat,lon"`);
  const [, latSign = '', latWhole = '', latFraction, lonSign = '', lonWhole = '', lonFraction] = match;
  const point = { lat: scaledText(latSign, latWhole, latFraction), lon: scaledText(lonSign, lonWhole, lonFraction) };
  if (!isOnEarth(point)) throw new RangeError(`"${posted}" is not a point on Earth`);
  const size = cellSizeOf(resolutionDeg);
  const half = size / 2n;
  const rows = (NORTH - SOUTH) / size;
  const columns = (EAST - WEST) / size;
  const southRow = floorDivision(point.lat - SOUTH - half, size);
  const westColumn = floorDivision(point.lon - WEST - half, size);
  const clampedRow = (row: bigint): bigint => (row < 0n ? 0n : row >= rows ? rows - 1n : row);
  const wrappedColumn = (column: bigint): bigint => ((column % columns) + columns) % columns;
  const cellAt = (row: bigint, column: bigint): string =>
    `${decimalText(SOUTH + clampedRow(row) * size)},${decimalText(WEST + wrappedColumn(column) * size)}`;
  return [
    cellAt(southRow, westColumn),
    cellAt(southRow, westColumn + 1n),
    cellAt(southRow + 1n, westColumn),
    cellAt(southRow + 1n, westColumn + 1n),
  ];
};

const unknownLocation = (source: RegisteredIndexSource, posted: string): DomainError =>
  new DomainError('rejected', 'unknown_location', `"${posted}" is not a location of index source ${source.sourceId}`);

const gridReadingLocation = (source: RegisteredIndexSource, posted: string): string => {
  const match = POSTED_POINT.exec(posted);
  if (!match) throw unknownLocation(source, posted);
  const [, latSign = '', latWhole = '', latFraction, lonSign = '', lonWhole = '', lonFraction] = match;
  const point = { lat: scaledText(latSign, latWhole, latFraction), lon: scaledText(lonSign, lonWhole, lonFraction) };
  if (!isOnEarth(point)) throw unknownLocation(source, posted);
  return cellId(cellSizeOf(source.resolutionDeg), point);
};

const fieldReadingLocation = (source: RegisteredIndexSource, posted: string): string => {
  const cut = posted.lastIndexOf('/');
  if (cut <= 0 || !FIELD_ID_PATTERN.test(posted.slice(cut + 1))) throw unknownLocation(source, posted);
  return posted;
};

/** The location a reading posted under `posted` is stored under, so that it meets the policies that
 *  resolved to it: a station of the source by its id; for a grid, any point of a cell (its centre, its
 *  south-west corner) as `"lat,lon"`, stored under the cell's id; a field as `"<farm_id>/<field_id>"`. */
export const readingLocation = (source: RegisteredIndexSource, posted: string): string => {
  switch (source.kind) {
    case 'station':
      if (!source.stations.some((station) => station.station_id === posted)) throw unknownLocation(source, posted);
      return posted;
    case 'grid':
      return gridReadingLocation(source, posted);
    case 'field':
      return fieldReadingLocation(source, posted);
  }
};

/** A cell of a grid by its place in the global tiling: `row` counts from −90° northwards, `column` from
 *  −180° eastwards, both from 0. What a grid file's pixels are matched to. */
export interface GridCellIndex {
  readonly row: number;
  readonly column: number;
}

/** The id of the cell at `index` of a grid of `resolutionDeg`. */
export const gridCellAt = (resolutionDeg: number, index: GridCellIndex): string => {
  const size = cellSizeOf(resolutionDeg);
  return `${decimalText(SOUTH + BigInt(index.row) * size)},${decimalText(WEST + BigInt(index.column) * size)}`;
};

/** Where the cell `cell` (an id `gridCellOf` gave) lies in the global tiling. */
export const gridCellIndexOf = (resolutionDeg: number, cell: string): GridCellIndex => {
  const match = POSTED_POINT.exec(cell);
  if (!match) throw new RangeError(`"${cell}" is not a grid cell`);
  const [, latSign = '', latWhole = '', latFraction, lonSign = '', lonWhole = '', lonFraction] = match;
  const size = cellSizeOf(resolutionDeg);
  return {
    row: Number((scaledText(latSign, latWhole, latFraction) - SOUTH) / size),
    column: Number((scaledText(lonSign, lonWhole, lonFraction) - WEST) / size),
  };
};
