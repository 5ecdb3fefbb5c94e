import { open, readFile } from 'node:fs/promises';
import { ProblemError } from '@cropcover/runtime';
import { NetCDFReader } from 'netcdfjs';
import { type GridRaster, missingValueTest } from './grid-raster';

// NetCDF-4 (HDF5) through h5wasm, which reads a hyperslab of a variable from the file on disk; NetCDF-3
// classic through netcdfjs, which needs the file in memory (classic files are the small ones: its format
// caps a variable below 4 GiB, and producers publish continents as NetCDF-4). CF conventions: the variable
// is (time, lat, lon) or (lat, lon), coordinates named lat/latitude and lon/longitude, time in
// `days|hours since …`, packed values unpacked by scale_factor and add_offset.

type Attribute = number | string | undefined;

/** One variable of a dataset, whichever library reads it. */
interface DatasetVariable {
  readonly name: string;
  readonly shape: readonly number[];
  attribute(name: string): Attribute;
  /** The whole variable, flat in C order (small: coordinates). */
  values(): ArrayLike<number>;
  /** A hyperslab, flat in C order. */
  block(start: readonly number[], count: readonly number[]): ArrayLike<number>;
}

interface Dataset {
  readonly variables: readonly DatasetVariable[];
  close(): void;
}

const scalarOf = (value: unknown): Attribute => {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value !== null && typeof value === 'object' && 'length' in value && (value as ArrayLike<unknown>).length > 0)
    return scalarOf((value as ArrayLike<unknown>)[0]);
  return undefined;
};

const openHdf5 = async (path: string): Promise<Dataset> => {
  // Loaded on the first NetCDF-4 file, not with the service: under tsx its 4 MB module (WebAssembly
  // inlined) costs ~590 MiB of RSS to load, in every process (docs/benchmarks.md, "Index files").
  const { default: h5wasm } = await import('h5wasm/node');
  await h5wasm.ready;
  const file = new h5wasm.File(path, 'r');
  const variables = file.keys().flatMap((name): DatasetVariable[] => {
    const entity = file.get(name);
    if (!(entity instanceof h5wasm.Dataset)) return [];
    const dataset = entity;
    return [
      {
        name,
        shape: dataset.shape ?? [],
        attribute: (key) => scalarOf(dataset.attrs[key]?.value),
        values: () => dataset.value as ArrayLike<number>,
        block: (start, count) =>
          dataset.slice(start.map((from, axis) => [from, from + count[axis]!])) as ArrayLike<number>,
      },
    ];
  });
  return { variables, close: () => file.close() };
};

const openClassic = async (path: string): Promise<Dataset> => {
  const reader = new NetCDFReader(await readFile(path));
  const sizes = reader.dimensions.map((dimension) => dimension.size);
  const recordDimension = reader.recordDimension?.id;
  const variables = reader.variables.map((variable): DatasetVariable => {
    const shape = variable.dimensions.map((id) =>
      id === recordDimension ? reader.recordDimension.length : sizes[id]!,
    );
    let all: ArrayLike<number> | undefined;
    const values = (): ArrayLike<number> => {
      all ??= reader.getDataVariable(variable.name).flat(Number.POSITIVE_INFINITY) as number[];
      return all;
    };
    return {
      name: variable.name,
      shape,
      attribute: (key) =>
        scalarOf((variable.attributes as { name: string; value: unknown }[]).find((item) => item.name === key)?.value),
      values,
      block: (start, count) => {
        const data = values();
        const out = new Float64Array(count.reduce((a, b) => a * b, 1));
        const strides = shape.map((_, axis) => shape.slice(axis + 1).reduce((a, b) => a * b, 1));
        let at = 0;
        const walk = (axis: number, offset: number): void => {
          for (let step = 0; step < count[axis]!; step += 1) {
            const position = offset + (start[axis]! + step) * strides[axis]!;
            if (axis === shape.length - 1) out[at++] = data[position]!;
            else walk(axis + 1, position);
          }
        };
        walk(0, 0);
        return out;
      },
    };
  });
  return { variables, close: () => undefined };
};

const HDF5_SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46]);

const openDataset = async (path: string): Promise<Dataset> => {
  const handle = await open(path);
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (head.equals(HDF5_SIGNATURE)) return openHdf5(path);
  if (head.subarray(0, 3).toString('latin1') === 'CDF') return openClassic(path);
  throw ProblemError.unprocessable('unreadable_file', 'The body is neither NetCDF-3 (CDF) nor NetCDF-4 (HDF5).');
};

const TIME_UNITS =
  /^\s*(days|hours)\s+since\s+(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?)?/;
const CALENDARS = new Set(['standard', 'gregorian', 'proleptic_gregorian']);

/** The UTC date of each time step, from CF `units` (`days|hours since …`). */
const datesOfTime = (time: DatasetVariable): string[] => {
  const units = String(time.attribute('units') ?? '');
  const match = TIME_UNITS.exec(units);
  const calendar = String(time.attribute('calendar') ?? 'standard').toLowerCase();
  if (!match || !CALENDARS.has(calendar))
    throw ProblemError.unprocessable(
      'unreadable_file',
      `The time variable's units "${units}" (calendar ${calendar}) are not "days|hours since <date>" in the Gregorian calendar.`,
    );
  const [, unit, year, month, day, hour = '0', minute = '0', second = '0'] = match;
  const base = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const step = unit === 'days' ? 86_400_000 : 3_600_000;
  return Array.from(time.values(), (value) => new Date(base + Number(value) * step).toISOString().slice(0, 10));
};

const coordinate = (dataset: Dataset, names: readonly string[]): DatasetVariable | undefined =>
  dataset.variables.find((variable) => names.includes(variable.name));

const unknownVariable = (dataset: Dataset, detail: string): ProblemError =>
  ProblemError.unprocessable(
    'unknown_variable',
    `${detail} Its variables: ${dataset.variables.map((variable) => variable.name).join(', ')}.`,
  );

/** The data variable: the one named, or the file's only gridded one. */
const dataVariable = (dataset: Dataset, name: string | undefined, coordinates: readonly string[]): DatasetVariable => {
  if (name !== undefined) {
    const named = dataset.variables.find((variable) => variable.name === name);
    if (!named) throw unknownVariable(dataset, `The file has no variable "${name}".`);
    return named;
  }
  const gridded = dataset.variables.filter(
    (variable) => variable.shape.length >= 2 && !coordinates.includes(variable.name),
  );
  if (gridded.length !== 1) throw unknownVariable(dataset, 'Name the variable to read (?variable=).');
  return gridded[0]!;
};

export const openNetcdf = async (path: string, variableName: string | undefined): Promise<GridRaster> => {
  const dataset = await openDataset(path);
  try {
    const lat = coordinate(dataset, ['lat', 'latitude']);
    const lon = coordinate(dataset, ['lon', 'longitude']);
    const time = coordinate(dataset, ['time']);
    if (!lat || !lon)
      throw ProblemError.unprocessable(
        'unreadable_file',
        'The file has no lat/latitude and lon/longitude coordinates.',
      );
    const variable = dataVariable(dataset, variableName, [lat.name, lon.name, time?.name ?? 'time']);
    const lats = Array.from(lat.values(), Number);
    const lons = Array.from(lon.values(), Number);
    const [slices, rows, columns] = variable.shape.length === 3 ? variable.shape : [1, ...variable.shape];
    if (variable.shape.length < 2 || variable.shape.length > 3 || rows !== lats.length || columns !== lons.length)
      throw unknownVariable(
        dataset,
        `The variable "${variable.name}" (shape ${variable.shape.join('×')}) is not (time, lat, lon) or (lat, lon).`,
      );
    const sliceDates = variable.shape.length === 3 && time ? datesOfTime(time) : undefined;
    if (lats.length < 2 || lons.length < 2)
      throw ProblemError.unprocessable('unreadable_file', 'A grid needs at least two latitudes and two longitudes.');
    // Coordinates are cell centres; rows may run south to north (then read upside down).
    const cellHeight = Math.abs(lats[1]! - lats[0]!);
    const cellWidth = Math.abs(lons[1]! - lons[0]!);
    const southFirst = lats[1]! > lats[0]!;
    const scale = Number(variable.attribute('scale_factor') ?? 1);
    const offset = Number(variable.attribute('add_offset') ?? 0);
    const isMarked = missingValueTest(
      [variable.attribute('_FillValue'), variable.attribute('missing_value')].map((mark) =>
        mark === undefined ? undefined : Number(mark),
      ),
    );
    return {
      grid: {
        west: Math.min(...lons) - cellWidth / 2,
        north: Math.max(...lats) + cellHeight / 2,
        cellWidth,
        cellHeight,
        columns: lons.length,
        rows: lats.length,
      },
      slices: slices!,
      sliceDates,
      // Marks are compared packed, as the file stores them; a value is unpacked only when it is not one.
      isMissing: (value) => Number.isNaN(value),
      readSlice: async (slice, window) => {
        const firstRow = southFirst ? rows! - window.row - window.rows : window.row;
        const start = [firstRow, window.column];
        const count = [window.rows, window.columns];
        const block = variable.block(
          variable.shape.length === 3 ? [slice, ...start] : start,
          variable.shape.length === 3 ? [1, ...count] : count,
        );
        const out = new Float64Array(window.rows * window.columns);
        for (let row = 0; row < window.rows; row += 1) {
          const fileRow = southFirst ? window.rows - 1 - row : row;
          for (let column = 0; column < window.columns; column += 1) {
            const raw = Number(block[fileRow * window.columns + column]);
            out[row * window.columns + column] = isMarked(raw) ? Number.NaN : raw * scale + offset;
          }
        }
        return out;
      },
      close: async () => dataset.close(),
    };
  } catch (error) {
    dataset.close();
    throw error;
  }
};
