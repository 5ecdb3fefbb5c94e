import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RegisteredIndexSource } from '@cropcover/domain';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { openGeoTiff } from '../src/index-files/geotiff-raster';
import { ingestIndexFile } from '../src/index-files/ingest-index-file';
import { storeIndexFile } from '../src/index-files/stored-index-files';

// INDEX-DATA.md §2.3 in one command, each of ours beside GDAL (Debian's gdal-bin) reading the same cells
// of the same files, run one after the other in this command so a noisy neighbour weighs on both:
//   npx tsx application/bench/index-files.ts
// BENCH_CELLS (10000) locations of interest, BENCH_YEAR_FILES (3) daily files measured for the year,
// BENCH_BACKFILL_FILES (300) stored files read for one new location, BENCH_CASES (all) a comma list of
// reader,ingest,csv,backfill. Our cases run in a child process each, so its peak RSS is theirs alone.
// Fixtures are written by GDAL from seeded pseudo-random rain (noise compresses worse than real rain).

const CELLS = Number(process.env.BENCH_CELLS ?? 10_000);
const YEAR_FILES = Number(process.env.BENCH_YEAR_FILES ?? 3);
const BACKFILL_FILES = Number(process.env.BENCH_BACKFILL_FILES ?? 300);
const CASES = (process.env.BENCH_CASES ?? 'reader,ingest,csv,backfill').split(',');

/** CHIRPS Africa at 0.05°: 20°W–55°E, 40°S–40°N. */
const AFRICA = { west: -20, north: 40, columns: 1500, rows: 1600, cell: 0.05 } as const;
const NODATA = -9999;
const NOW = new Date();

/** A small seeded generator (mulberry32): the same fixtures every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Land is an ellipse over the grid (about 70 % of it); the sea is nodata, as in CHIRPS. */
const isLand = (column: number, row: number): boolean => ((column - 750) / 760) ** 2 + ((row - 800) / 820) ** 2 < 0.9;

/** One day of rain: dry on six cells in ten, else up to ~80 mm, at float32. */
const dayOfRain = (day: number): Float32Array => {
  const random = seeded(1000 + day);
  const values = new Float32Array(AFRICA.columns * AFRICA.rows);
  for (let at = 0; at < values.length; at += 1) {
    const column = at % AFRICA.columns;
    const row = Math.floor(at / AFRICA.columns);
    const wet = random();
    values[at] = !isLand(column, row) ? NODATA : wet < 0.6 ? 0 : Math.round(-Math.log(random()) * 12_000) / 1000;
  }
  return values;
};

const dateOfDay = (day: number): string => new Date(Date.UTC(2025, 0, 1 + day)).toISOString().slice(0, 10);

/** A deflate-compressed striped GeoTIFF, written by gdal_translate from a raw float32 grid (EHdr). */
const writeDailyTiff = (directory: string, day: number): string => {
  const bil = join(directory, `day-${day}.bil`);
  writeFileSync(bil, dayOfRain(day));
  const half = AFRICA.cell / 2;
  writeFileSync(
    join(directory, `day-${day}.hdr`),
    [
      'BYTEORDER I',
      'LAYOUT BIL',
      `NROWS ${AFRICA.rows}`,
      `NCOLS ${AFRICA.columns}`,
      'NBANDS 1',
      'NBITS 32',
      'PIXELTYPE FLOAT',
      `ULXMAP ${AFRICA.west + half}`,
      `ULYMAP ${AFRICA.north - half}`,
      `XDIM ${AFRICA.cell}`,
      `YDIM ${AFRICA.cell}`,
      `NODATA ${NODATA}`,
      '',
    ].join('\n'),
  );
  const tif = join(directory, `day-${day}.tif`);
  execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', '-co', 'COMPRESS=DEFLATE', bil, tif]);
  rmSync(bil);
  return tif;
};

interface Pixel {
  readonly column: number;
  readonly row: number;
}

/** `count` distinct land pixels, seeded: where a programme's policies lie. */
const locationsOfInterest = (count: number): Pixel[] => {
  const random = seeded(7);
  const chosen = new Map<number, Pixel>();
  while (chosen.size < count) {
    const column = Math.floor(random() * AFRICA.columns);
    const row = Math.floor(random() * AFRICA.rows);
    if (isLand(column, row)) chosen.set(row * AFRICA.columns + column, { column, row });
  }
  return [...chosen.values()];
};

/** A pixel's centre as gdallocationinfo -geoloc takes it: "lon lat". */
const centreOf = ({ column, row }: Pixel): string =>
  `${(AFRICA.west + (column + 0.5) * AFRICA.cell).toFixed(3)} ${(AFRICA.north - (row + 0.5) * AFRICA.cell).toFixed(3)}`;

const STATIONS = 58;
const CSV_YEARS = 39;

/** Wide daily rainfall of 58 stations over 39 years (1981–2019), as a producer exports it. */
const writeWideCsv = (directory: string): { path: string; readings: number } => {
  const random = seeded(58);
  const header = ['date', ...Array.from({ length: STATIONS }, (_, at) => `ST${String(at + 1).padStart(2, '0')}`)];
  const lines = [header.join(',')];
  let readings = 0;
  for (let day = new Date(Date.UTC(1981, 0, 1)); day.getUTCFullYear() < 1981 + CSV_YEARS; ) {
    const values = header.slice(1).map(() => (random() < 0.6 ? '0' : (-Math.log(random()) * 12).toFixed(1)));
    readings += values.length;
    lines.push(`${day.toISOString().slice(0, 10)},${values.join(',')}`);
    day = new Date(day.getTime() + 86_400_000);
  }
  const path = join(directory, 'stations-wide.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, readings };
};

const gridSource: RegisteredIndexSource = {
  sourceId: 'src-bench-chirps',
  organizationId: 'org-bench',
  name: 'CHIRPS Africa 0.05',
  index: 'rainfall_mm',
  kind: 'grid',
  stations: [],
  radiusKm: null,
  resolutionDeg: 0.05,
  unit: 'mm',
  currency: null,
  cadence: 'daily',
  sampling: 'cell',
  product: { name: 'CHIRPS', version: '2.0' },
  model: null,
  registeredAt: NOW.toISOString(),
};

const stationSource: RegisteredIndexSource = {
  ...gridSource,
  sourceId: 'src-bench-stations',
  name: 'Station network',
  kind: 'station',
  stations: Array.from({ length: STATIONS }, (_, at) => ({
    station_id: `ST${String(at + 1).padStart(2, '0')}`,
    lat: -1 + at * 0.05,
    lon: 36 + at * 0.05,
  })),
  radiusKm: 25,
  resolutionDeg: null,
};

// ---- Our side, in a child process per case -------------------------------------------------------------

interface CaseResult {
  readonly seconds: readonly number[];
  /** CPU seconds (user + system) of the measured work: what a loaded machine does not inflate. */
  readonly cpuSeconds: number;
  /** RSS once everything was loaded, before the measured work, and the process's peak, in MiB. */
  readonly baselineMiB: number;
  readonly peakMiB: number;
  readonly detail: string;
  readonly values?: readonly number[];
}

const mib = (bytes: number) => Math.round(bytes / 1024 ** 2);

/** The values of `pixels` in a single-band GeoTIFF, read as the ingestion reads a file. */
const readPixels = async (path: string, pixels: readonly Pixel[]): Promise<number[]> => {
  const raster = await openGeoTiff(path);
  try {
    const { columns, rows } = raster.grid;
    const values = await raster.readSlice(0, { column: 0, row: 0, columns, rows });
    return pixels.map(({ column, row }) => Number(values[row * columns + column]));
  } finally {
    await raster.close();
  }
};

const withDatabase = async <T>(work: (db: Kysely<ReadModels>) => Promise<T>): Promise<T> => {
  const database = await createTestDatabase('bench_index_files');
  const pool = createPool(database.url, createLogger({ level: 'silent', name: 'bench' }));
  const db = createKysely<ReadModels>(pool);
  try {
    await migrateReadModels(db);
    return await work(db);
  } finally {
    await db.destroy();
    await database.drop();
  }
};

const ingestFile = async (
  db: Kysely<ReadModels>,
  source: RegisteredIndexSource,
  path: string,
  store: string,
  request: { mediaType: 'image/tiff' | 'text/csv'; dates?: string[] },
) => {
  const file = await storeIndexFile(createReadStream(path), store, { gzip: false, limitBytes: 1024 ** 3 });
  const { ingestion } = await ingestIndexFile(
    db,
    { source, file, requestedBy: 'bench', now: NOW, ...request },
    { asJob: false, logger: createLogger({ level: 'silent', name: 'bench' }) },
  );
  return ingestion;
};

const runCase = async (name: string, args: readonly string[]): Promise<CaseResult> => {
  const baselineMiB = mib(process.memoryUsage.rss());
  const seconds: number[] = [];
  let detail = '';
  let values: number[] | undefined;
  const pixels = locationsOfInterest(CELLS);
  let cpuSeconds = 0;
  const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await work();
    const used = process.cpuUsage(cpu);
    cpuSeconds += (used.user + used.system) / 1e6;
    return [(performance.now() - started) / 1000, result];
  };
  if (name === 'reader') {
    for (const path of args) {
      const [took, read] = await timed(() => readPixels(path, pixels));
      seconds.push(took);
      values ??= read;
    }
    detail = `${pixels.length} cells from each of ${args.length} files`;
  } else if (name === 'ingest') {
    const store = mkdtempSync(join(tmpdir(), 'bench-store-'));
    await withDatabase(async (db) => {
      const written: number[] = [];
      for (const [day, path] of args.map((path) => [Number(/day-(\d+)/.exec(path)![1]), path] as const)) {
        const [took, ingestion] = await timed(() =>
          ingestFile(db, gridSource, path, store, { mediaType: 'image/tiff', dates: [dateOfDay(day)] }),
        );
        seconds.push(took);
        written.push(ingestion.readings_written);
      }
      detail = `readings written per file: ${written.join(', ')}`;
    });
    rmSync(store, { recursive: true, force: true });
  } else if (name === 'csv') {
    const store = mkdtempSync(join(tmpdir(), 'bench-store-'));
    await withDatabase(async (db) => {
      const [took, ingestion] = await timed(() =>
        ingestFile(db, stationSource, args[0]!, store, { mediaType: 'text/csv' }),
      );
      seconds.push(took);
      detail = `${ingestion.readings_written} readings written, ${ingestion.locations} locations, ${ingestion.periods} days`;
    });
    rmSync(store, { recursive: true, force: true });
  } else if (name === 'backfill') {
    // One new location's history: a one-pixel window of each stored file, the primitive the backfill uses.
    const [pixel] = pixels;
    values = [];
    const [took] = await timed(async () => {
      for (const path of args) {
        const raster = await openGeoTiff(path);
        const window = await raster.readSlice(0, { column: pixel!.column, row: pixel!.row, columns: 1, rows: 1 });
        values!.push(Number(window[0]));
        await raster.close();
      }
    });
    seconds.push(took);
    detail = `one pixel window of each of ${args.length} files`;
  } else throw new Error(`no case ${name}`);
  const peakMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  return { seconds, cpuSeconds, baselineMiB, peakMiB, detail, ...(values ? { values } : {}) };
};

/** Runs one of our cases in a fresh process and reads its result. */
const ours = (name: string, args: readonly string[]): CaseResult => {
  const child = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, '--case', name, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 ** 2,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`case ${name} failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as CaseResult;
};

// ---- GDAL's side, and the report -----------------------------------------------------------------------

interface GdalRun {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakMiB: number;
  readonly stdout: string;
}

/** A GDAL command under /usr/bin/time, for its wall time and peak RSS. */
const gdal = (command: string, args: readonly string[], input?: string): GdalRun => {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S %M', command, ...args], {
    encoding: 'utf8',
    input,
    maxBuffer: 256 * 1024 ** 2,
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
  const [user = 0, system = 0, peakKiB = 0] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { seconds, cpuSeconds: user + system, peakMiB: Math.round(peakKiB / 1024), stdout: run.stdout };
};

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const s = (seconds: number) => seconds.toFixed(3);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** How many of ours differ from GDAL's (as text, missing as the nodata value). */
const mismatches = (ourValues: readonly number[], gdalText: string): number => {
  const theirs = gdalText.trim().split('\n').map(Number);
  return ourValues.filter((value, at) => Math.fround(value) !== Math.fround(theirs[at]!)).length;
};

/** Wall and CPU seconds of ours and of GDAL's over the same work, and ours ÷ GDAL's for each. */
const versus = (mine: { wall: number; cpu: number }, theirs: { wall: number; cpu: number }, per = 1) =>
  [
    `${s(mine.wall / per)} (${s(mine.cpu / per)})`,
    `${s(theirs.wall / per)} (${s(theirs.cpu / per)})`,
    `${(mine.wall / theirs.wall).toFixed(2)} (${(mine.cpu / theirs.cpu).toFixed(2)})`,
  ] as const;

const totalOf = (runs: readonly GdalRun[]) => ({
  wall: sum(runs.map((run) => run.seconds)),
  cpu: sum(runs.map((run) => run.cpuSeconds)),
});

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), 'bench-index-files-'));
  // Each row is printed when measured: a later case that fails leaves the earlier ones.
  const row = (...cells: string[]) => console.log(`| ${cells.join(' | ')} |`);
  try {
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}; load average at start ${load()}`,
    );
    const days = Math.max(YEAR_FILES, 1);
    const tiffs = Array.from({ length: days }, (_, day) => writeDailyTiff(work, day));
    const pixels = locationsOfInterest(CELLS);
    const points = `${pixels.map(centreOf).join('\n')}\n`;
    console.log(`fixtures: ${days} daily GeoTIFFs of ${AFRICA.columns} × ${AFRICA.rows} cells (deflate, striped)`);
    console.log(
      '| case | GDAL anchor | ours: wall (CPU) s | GDAL: wall (CPU) s | ours ÷ GDAL: wall (CPU) | our peak RSS MiB (before the work) | GDAL peak RSS MiB | check |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    const noPam = ['--config', 'GDAL_PAM_ENABLED', 'NO'];

    if (CASES.includes('reader')) {
      const mine = ours('reader', tiffs);
      const located = tiffs.map((tif) => gdal('gdallocationinfo', ['-valonly', '-geoloc', tif], points));
      const everyCell = tiffs.map((tif) => gdal('gdalinfo', [...noPam, '-stats', '-nomd', tif]));
      const differ = mismatches(mine.values ?? [], located[0]!.stdout);
      const ourTotal = { wall: sum(mine.seconds), cpu: mine.cpuSeconds };
      row(
        `read ${CELLS} cells of a daily file, per file (${tiffs.length} files)`,
        'gdallocationinfo, the points on stdin',
        ...versus(ourTotal, totalOf(located), tiffs.length),
        `${mine.peakMiB} (${mine.baselineMiB})`,
        `${located[0]!.peakMiB}`,
        `${differ} of ${CELLS} values differ from GDAL's`,
      );
      row(
        '· the same, against GDAL decoding every cell',
        '`gdalinfo -stats`',
        ...versus(ourTotal, totalOf(everyCell), tiffs.length),
        `${mine.peakMiB} (${mine.baselineMiB})`,
        `${everyCell[0]!.peakMiB}`,
        'ours decodes the whole raster too',
      );
    }
    if (CASES.includes('ingest')) {
      const mine = ours('ingest', tiffs);
      const theirs = tiffs.map((tif) => gdal('gdal_translate', ['-q', '-of', 'XYZ', tif, '/vsistdout/']));
      const perFile = sum(mine.seconds) / tiffs.length;
      row(
        `ingest a daily file into PostgreSQL, every cell kept (today), per file (${tiffs.length} files: ${mine.seconds.map(s).join(', ')} s; a year ≈ ${((perFile * 365) / 60).toFixed(0)} min)`,
        '`gdal_translate -of XYZ` (every cell out as text)',
        ...versus({ wall: sum(mine.seconds), cpu: mine.cpuSeconds }, totalOf(theirs), tiffs.length),
        `${mine.peakMiB} (${mine.baselineMiB})`,
        `${theirs[0]!.peakMiB}`,
        mine.detail,
      );
    }
    if (CASES.includes('csv')) {
      const csv = writeWideCsv(work);
      const mine = ours('csv', [csv.path]);
      const sqlite = join(work, 'stations.sqlite');
      const theirs = gdal('ogr2ogr', ['-f', 'SQLite', '-oo', 'AUTODETECT_TYPE=YES', sqlite, csv.path]);
      row(
        `wide CSV into PostgreSQL, ${STATIONS} stations × ${CSV_YEARS} years daily (${csv.readings} values)`,
        '`ogr2ogr -f SQLite`, types detected',
        ...versus({ wall: mine.seconds[0]!, cpu: mine.cpuSeconds }, totalOf([theirs])),
        `${mine.peakMiB} (${mine.baselineMiB})`,
        `${theirs.peakMiB}`,
        mine.detail,
      );
    }
    if (CASES.includes('backfill')) {
      // Stored files are copies of the daily files: distinct files on disk, all in the page cache.
      const stored = Array.from({ length: BACKFILL_FILES }, (_, at) => {
        const path = join(work, `stored-${at}.tif`);
        copyFileSync(tiffs[at % tiffs.length]!, path);
        return path;
      });
      const point = centreOf(pixels[0]!).split(' ');
      const mine = ours('backfill', stored);
      const perFile = stored.map((tif) => gdal('gdallocationinfo', ['-valonly', '-geoloc', tif, ...point]));
      const vrt = join(work, 'stored.vrt');
      const built = gdal('gdalbuildvrt', ['-q', '-separate', vrt, ...stored]);
      const stack = gdal('gdallocationinfo', ['-valonly', '-geoloc', vrt, ...point]);
      const differ = mismatches(mine.values ?? [], perFile.map((run) => run.stdout).join(''));
      const ourTotal = { wall: mine.seconds[0]!, cpu: mine.cpuSeconds };
      const extrapolated = `14,000 files ≈ ${s((mine.seconds[0]! / stored.length) * 14_000)} s`;
      row(
        `backfill one location: one pixel of each of ${stored.length} stored files, whole run (${extrapolated})`,
        '`gdallocationinfo`, a process per file',
        ...versus(ourTotal, totalOf(perFile)),
        `${mine.peakMiB} (${mine.baselineMiB})`,
        `${perFile[0]!.peakMiB}`,
        `${differ} of ${stored.length} values differ from GDAL's`,
      );
      row(
        '· the same, against one GDAL process over a VRT of them all',
        `\`gdallocationinfo\` on a \`gdalbuildvrt -separate\` stack (building it: ${s(built.seconds)} s)`,
        ...versus(ourTotal, totalOf([stack])),
        `${mine.peakMiB} (${mine.baselineMiB})`,
        `${stack.peakMiB}`,
        '',
      );
    }
    console.log(`load average at end ${load()}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

if (process.argv[2] === '--case') {
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const result = await runCase(process.argv[3]!, process.argv.slice(4));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else await main();
