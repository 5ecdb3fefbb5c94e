import { createReadStream } from 'node:fs';
import type { IndexFileMediaType } from '@cropcover/contracts';
import {
  DomainError,
  NO_UNIT_AREAS,
  type RegisteredIndexSource,
  readingLocationWithUnits,
  type UnitAreas,
} from '@cropcover/domain';
import { ProblemError } from '@cropcover/runtime';
import { CsvError, type Info, parse } from 'csv-parse';
import { pixelsOfCells, readPixels } from './cell-pixels';
import { openGeoTiff } from './geotiff-raster';
import { cellIdOfPixel, type GridRaster, placeOnSourceGrid } from './grid-raster';
import { openNetcdf } from './netcdf-raster';

/** One value a file holds for a location and period; null where the file marks it missing. */
export interface FileValue {
  readonly location: string;
  readonly date: string;
  readonly value: number | null;
}

/** What the request says about a file beyond its bytes. */
export interface FileReading {
  readonly mediaType: IndexFileMediaType;
  /** The period of each GeoTIFF band. */
  readonly dates?: readonly string[] | undefined;
  readonly variable?: string | undefined;
}

const unreadable = (detail: string): ProblemError => ProblemError.unprocessable('unreadable_file', detail);

/** Any failure of a decoder that is not already a problem is the file's: truncated or not what it claims. */
const asProblem = (error: unknown): unknown =>
  error instanceof ProblemError ? error : unreadable(`The file cannot be read: ${(error as Error).message ?? error}.`);

const openRaster = (path: string, reading: FileReading): Promise<GridRaster> =>
  reading.mediaType === 'image/tiff' ? openGeoTiff(path) : openNetcdf(path, reading.variable);

/** The cells of a grid file, a slice at a time, each pixel stored under its source cell: every cell, or
 *  only `cells` (the locations of interest, INDEX-DATA §2.2), read through windows. */
async function* gridValues(
  source: RegisteredIndexSource,
  path: string,
  reading: FileReading,
  cells: Iterable<string> | undefined,
): AsyncGenerator<FileValue[]> {
  if (source.kind !== 'grid' || source.resolutionDeg === null)
    throw unreadable(`Source ${source.sourceId} is a ${source.kind} source: a raster is read into a grid source.`);
  const raster = await openRaster(path, reading).catch((error) => {
    throw asProblem(error);
  });
  try {
    const dates = raster.sliceDates ?? reading.dates;
    if (dates === undefined || dates.length !== raster.slices)
      throw ProblemError.validationFailed([
        {
          path: 'dates',
          message: `the file has ${raster.slices} band(s): give ${raster.slices === 1 ? 'date or ' : ''}dates with one date per band`,
        },
      ]);
    const placement = placeOnSourceGrid(raster.grid, source.resolutionDeg);
    const { columns, rows } = raster.grid;
    const pixels =
      cells === undefined ? undefined : pixelsOfCells(raster.grid, placement, source.resolutionDeg, new Set(cells));
    const every =
      pixels === undefined
        ? Array.from({ length: rows * columns }, (_, at) =>
            cellIdOfPixel(source.resolutionDeg!, placement, at % columns, Math.floor(at / columns)),
          )
        : pixels.map((pixel) => pixel.cell);
    for (let slice = 0; slice < raster.slices; slice += 1) {
      const values = await (pixels === undefined
        ? raster.readSlice(slice, { column: 0, row: 0, columns, rows })
        : readPixels(raster, slice, pixels)
      ).catch((error) => {
        throw asProblem(error);
      });
      const date = dates[slice]!;
      yield every.map((location, at) => {
        const value = Number(values[at]);
        return { location, date, value: raster.isMissing(value) ? null : value };
      });
    }
  } finally {
    await raster.close();
  }
}

const MISSING_TEXT = new Set(['', 'NA', 'NaN', 'nan', '-9999', '-999.9', '-9999.0']);
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const BATCH = 5_000;

/** Long (`location,date,value`) or wide (`date,<location>,…`) series, streamed a batch at a time. */
async function* csvValues(source: RegisteredIndexSource, units: UnitAreas, path: string): AsyncGenerator<FileValue[]> {
  const input = createReadStream(path);
  const records = input.pipe(parse({ bom: true, info: true, skip_empty_lines: true, trim: true }));
  const located = new Map<string, string>();
  const locationOf = (posted: string, line: number): string => {
    const known = located.get(posted);
    if (known !== undefined) return known;
    try {
      const location = readingLocationWithUnits(source, units, posted);
      located.set(posted, location);
      return location;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new ProblemError({
        status: 422,
        code: 'unknown_location',
        title: 'Unprocessable content',
        detail: `line ${line}: ${error.message}. Nothing was recorded.`,
      });
    }
  };
  const numberIn = (text: string, line: number): number | null => {
    if (MISSING_TEXT.has(text)) return null;
    if (!NUMBER_TEXT.test(text)) throw unreadable(`line ${line}: "${text}" is not a number.`);
    return Number(text);
  };
  const dateOf = (text: string, line: number): string => {
    if (!DATE_TEXT.test(text)) throw unreadable(`line ${line}: "${text}" is not a date YYYY-MM-DD.`);
    return text;
  };
  let header: string[] | undefined;
  let wide = false;
  let batch: FileValue[] = [];
  try {
    for await (const { record, info } of records as AsyncIterable<{ record: string[]; info: Info }>) {
      const line = info.lines;
      if (header === undefined) {
        header = record;
        wide = header[0] === 'date' && header.length >= 2;
        if (!wide && header.join(',') !== 'location,date,value')
          throw unreadable('The header must be location,date,value (long) or date,<location>,… (wide).');
        continue;
      }
      if (record.length !== header.length)
        throw unreadable(`line ${line}: ${record.length} columns where the header has ${header.length}.`);
      if (wide) {
        const date = dateOf(record[0]!, line);
        for (let column = 1; column < record.length; column += 1)
          batch.push({ location: locationOf(header[column]!, 1), date, value: numberIn(record[column]!, line) });
      } else {
        batch.push({
          location: locationOf(record[0]!, line),
          date: dateOf(record[1]!, line),
          value: numberIn(record[2]!, line),
        });
      }
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof CsvError) throw unreadable(`The CSV cannot be read: ${error.message}.`);
    throw error;
  } finally {
    input.destroy();
  }
  if (header === undefined) throw unreadable('The CSV is empty: a header is required.');
  if (batch.length > 0) yield batch;
}

/** The values a stored file holds for the source, in batches: of a grid file, only `cells` when given; a
 *  CSV's locations may be the source's unit areas by unit_id (INDEX-DATA §2.4). */
export const fileValues = (
  source: RegisteredIndexSource,
  path: string,
  reading: FileReading,
  cells?: Iterable<string>,
  units: UnitAreas = NO_UNIT_AREAS,
): AsyncGenerator<FileValue[]> =>
  reading.mediaType === 'text/csv' ? csvValues(source, units, path) : gridValues(source, path, reading, cells);
