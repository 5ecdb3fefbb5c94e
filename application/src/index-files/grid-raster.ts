import { type GridCellIndex, gridCellAt } from '@cropcover/domain';
import { ProblemError } from '@cropcover/runtime';

// A grid file as the ingestion reads it, whatever its format: a stack of slices (GeoTIFF bands, NetCDF
// time steps) over one regular lat/lon grid, read a window at a time so a few cells never decode a
// whole continent.

/** The file's grid as its georeferencing says: the north-west corner of its first pixel, pixel sizes. */
export interface FileGrid {
  readonly west: number;
  readonly north: number;
  readonly cellWidth: number;
  readonly cellHeight: number;
  readonly columns: number;
  readonly rows: number;
}

/** Pixels of the file, from its north-west pixel (row 0 is the northernmost). */
export interface PixelWindow {
  readonly column: number;
  readonly row: number;
  readonly columns: number;
  readonly rows: number;
}

export interface GridRaster {
  readonly grid: FileGrid;
  readonly slices: number;
  /** The date of each slice when the file says it (NetCDF time), else undefined. */
  readonly sliceDates: readonly string[] | undefined;
  /** Whether a raw value is the file's mark of no data (fill value, nodata, a producer's sentinel). */
  readonly isMissing: (value: number) => boolean;
  /** The window's values, row by row from its north-west pixel. */
  readSlice(slice: number, window: PixelWindow): Promise<ArrayLike<number>>;
  close(): Promise<void>;
}

/** Producers' marks of no data, whatever the file's own fill value says (INDEX-DATA.md §2.1). */
const PRODUCER_SENTINELS = [-9999, -999.9];

/** A value is missing when it is not a number, equals one of the file's marks, or a producer's sentinel
 *  (compared as the file's float32 would hold them, so −999.9 in a float32 raster is found). */
export const missingValueTest = (marks: readonly (number | undefined)[]): ((value: number) => boolean) => {
  const all = [
    ...marks.filter((mark): mark is number => mark !== undefined && !Number.isNaN(mark)),
    ...PRODUCER_SENTINELS,
  ];
  const exact = new Set([...all, ...all.map(Math.fround)]);
  return (value) => Number.isNaN(value) || exact.has(value);
};

/** How far, in cells, a file's grid may stray from the source's over its whole width and still be it:
 *  producers store 0.05° as the float 0.0500000007. */
const GRID_TOLERANCE = 0.01;

/** Where the file's pixel (0, 0) lies in the source's global tiling (row counted from −90°). */
export interface GridPlacement {
  /** Global row of the file's northernmost pixel row. */
  readonly topRow: number;
  /** Global column of the file's westernmost pixel column. */
  readonly leftColumn: number;
  /** Columns around the globe: a file on 0–360° longitude (ERA5) wraps past the antimeridian. */
  readonly columnsAround: number;
}

const describeFile = (grid: FileGrid): string =>
  `the file's grid has ${grid.cellWidth}° × ${grid.cellHeight}° cells from (${grid.north}, ${grid.west}) (north-west corner)`;

/** The file's grid matched to the source's cells, or 422 `grid_mismatch` naming both. */
export const placeOnSourceGrid = (grid: FileGrid, resolutionDeg: number): GridPlacement => {
  const mismatch = (why: string) =>
    ProblemError.unprocessable(
      'grid_mismatch',
      `${describeFile(grid)}; the source's grid has ${resolutionDeg}° cells from (−90, −180): ${why}.`,
    );
  const drift = (size: number, count: number) => (Math.abs(size - resolutionDeg) * count) / resolutionDeg;
  if (drift(grid.cellWidth, grid.columns) > GRID_TOLERANCE || drift(grid.cellHeight, grid.rows) > GRID_TOLERANCE)
    throw mismatch('the cell sizes differ');
  const columnsFromWest = (grid.west + 180) / resolutionDeg;
  const rowsFromSouth = (grid.north + 90) / resolutionDeg;
  const leftColumn = Math.round(columnsFromWest);
  const northEdge = Math.round(rowsFromSouth);
  if (Math.abs(columnsFromWest - leftColumn) > GRID_TOLERANCE || Math.abs(rowsFromSouth - northEdge) > GRID_TOLERANCE)
    throw mismatch('the file’s pixels do not lie on the source’s cells');
  if (northEdge - grid.rows < 0 || northEdge > 180 / resolutionDeg) throw mismatch('the file reaches beyond the poles');
  const columnsAround = Math.round(360 / resolutionDeg);
  return {
    topRow: northEdge - 1,
    leftColumn: ((leftColumn % columnsAround) + columnsAround) % columnsAround,
    columnsAround,
  };
};

/** The source's cell of a file pixel. */
export const cellOfPixel = (placement: GridPlacement, column: number, row: number): GridCellIndex => ({
  row: placement.topRow - row,
  column: (placement.leftColumn + column) % placement.columnsAround,
});

/** The source cell id of a file pixel. */
export const cellIdOfPixel = (resolutionDeg: number, placement: GridPlacement, column: number, row: number): string =>
  gridCellAt(resolutionDeg, cellOfPixel(placement, column, row));
