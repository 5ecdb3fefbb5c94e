import { gridCellIndexOf } from '@cropcover/domain';
import type { FileGrid, GridPlacement, GridRaster, PixelWindow } from './grid-raster';

// Reading a few cells of a grid file (INDEX-DATA §2.2): the cells of interest at ingestion, one location's
// cells at a backfill. Only the pixels asked for are read, through window reads, so a cell of a continent's
// raster decodes the strip or tile holding it, never the whole raster.

/** A source cell and the file pixel holding it. */
export interface CellPixel {
  readonly cell: string;
  readonly column: number;
  readonly row: number;
}

/** The pixels of the file holding the given cells; cells outside the file are left out. */
export const pixelsOfCells = (
  grid: FileGrid,
  placement: GridPlacement,
  resolutionDeg: number,
  cells: Iterable<string>,
): CellPixel[] => {
  const pixels: CellPixel[] = [];
  for (const cell of cells) {
    const index = gridCellIndexOf(resolutionDeg, cell);
    const row = placement.topRow - index.row;
    const column =
      (((index.column - placement.leftColumn) % placement.columnsAround) + placement.columnsAround) %
      placement.columnsAround;
    if (row >= 0 && row < grid.rows && column < grid.columns) pixels.push({ cell, column, row });
  }
  return pixels;
};

/** One window around pixels lying close together pays when it holds few pixels not asked for; scattered
 *  pixels are read one by one (each still decodes only its own strip or tile). */
const SPARE_PIXELS_PER_PIXEL = 64;

const windowAround = (pixels: readonly CellPixel[]): PixelWindow => {
  let [west, north, east, south] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  for (const { column, row } of pixels) {
    west = Math.min(west, column);
    east = Math.max(east, column);
    north = Math.min(north, row);
    south = Math.max(south, row);
  }
  return { column: west, row: north, columns: east - west + 1, rows: south - north + 1 };
};

/** The raw value of each pixel in one slice, in the order of `pixels`. */
export const readPixels = async (
  raster: GridRaster,
  slice: number,
  pixels: readonly CellPixel[],
): Promise<number[]> => {
  if (pixels.length === 0) return [];
  const window = windowAround(pixels);
  if (window.columns * window.rows <= pixels.length * SPARE_PIXELS_PER_PIXEL) {
    const values = await raster.readSlice(slice, window);
    return pixels.map((pixel) =>
      Number(values[(pixel.row - window.row) * window.columns + (pixel.column - window.column)]),
    );
  }
  const values: number[] = [];
  for (const pixel of pixels) {
    const [value] = Array.from(
      await raster.readSlice(slice, { column: pixel.column, row: pixel.row, columns: 1, rows: 1 }),
    );
    values.push(Number(value));
  }
  return values;
};
