import { accessSync, constants, createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  importReadingsCsv,
  ingestIndexFile,
  sourceForFiles,
  storeIndexFile,
  unitAreasOfSource,
} from '@cropcover/application';
import { INDEX_FILE_MAX_BYTES, type IndexFileMediaType, IndexFileQuery } from '@cropcover/contracts';
import { createEventStore, migrateEventStore } from '@cropcover/eventstore';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import {
  createKysely,
  createLogger,
  createPool,
  loadConfigOrExit,
  ProblemError,
  resolveDatabaseUrl,
  systemClock,
} from '@cropcover/runtime';

// Bulk history of index readings into the database the service uses (DATABASE_URL, else the embedded
// PostgreSQL under DATA_DIR — stop `npm start` first then, as both would start it):
//   npm run import-readings -- [--organization <org_id>] readings.csv
//   npm run import-readings -- --source <id> [--date D | --dates D1,D2,…] [--variable v] [--label l] FILE
// With --source, FILE is a producer's file (INDEX-DATA.md §2.1: .tif/.tiff, .nc, .csv, each maybe .gz),
// ingested exactly as POST /insurance/index-sources/{id}/files does it.
// A file by source (header source_id,location,index,date,value,source) may write any registered source:
// whoever runs this holds the database. A file per field (farm_id,field_id,index,date,value,source)
// writes the field source of --organization, as the endpoint does for its caller.
// Exit status: 0 imported, 1 refused (nothing written), 2 usage or configuration.

const USAGE =
  'usage: import-readings [--organization <org_id>] <file.csv>\n' +
  '  header source_id,location,index,date,value,source   or   farm_id,field_id,index,date,value,source\n' +
  '   or: import-readings --source <id> [--date D | --dates D1,D2,…] [--variable v] [--label l] <file>\n' +
  '  a GeoTIFF (.tif), NetCDF (.nc) or CSV (.csv) as its producer publishes it, maybe .gz\n';
const OPTIONS = {
  organization: { type: 'string' },
  source: { type: 'string' },
  date: { type: 'string' },
  dates: { type: 'string' },
  variable: { type: 'string' },
  label: { type: 'string' },
} as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: OPTIONS, allowPositionals: true });
} catch {
  process.stderr.write(USAGE);
  process.exit(2);
}
if (parsed.positionals.length !== 1) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const path = parsed.positionals[0]!;
const organizationId = parsed.values.organization ?? '';
try {
  accessSync(path, constants.R_OK);
} catch {
  process.stderr.write(`cannot read ${path}\n`);
  process.exit(2);
}
/** The media type a file's name says, and whether it is gzipped. */
const MEDIA_TYPES: Readonly<Record<string, IndexFileMediaType>> = {
  tif: 'image/tiff',
  tiff: 'image/tiff',
  nc: 'application/x-netcdf',
  nc4: 'application/x-netcdf',
  csv: 'text/csv',
};
const gzip = path.endsWith('.gz');
const mediaType = MEDIA_TYPES[path.replace(/\.gz$/, '').split('.').pop()?.toLowerCase() ?? ''];
const { source: sourceId, date, dates, variable, label } = parsed.values;
const fileQuery = IndexFileQuery.safeParse({ date, dates, variable, label });
if (sourceId !== undefined && (mediaType === undefined || !fileQuery.success)) {
  process.stderr.write(
    mediaType === undefined ? `${path}: not a .tif, .nc or .csv file\n` : `${fileQuery.error?.message}\n`,
  );
  process.stderr.write(USAGE);
  process.exit(2);
}
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'import-readings' });
const database = await resolveDatabaseUrl(config, logger);
const pool = createPool(database.url, logger, { applicationName: 'cropcover-import-readings' });
const db = createKysely<ReadModels>(pool);
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
try {
  await migrateReadModels(db);
  if (!config.eventStoreUrl) await migrateEventStore(pool);
  if (sourceId !== undefined && mediaType !== undefined && fileQuery.data) {
    // The operator running this holds the database: it ingests as an admin.
    const actor = { subject: 'import-readings', organizationId, isAdmin: true, roles: ['admin'] };
    try {
      const source = await sourceForFiles(eventStore, actor, sourceId);
      const file = await storeIndexFile(createReadStream(path), config.indexFileDir, {
        gzip,
        limitBytes: INDEX_FILE_MAX_BYTES,
      });
      const { ingestion, unchanged } = await ingestIndexFile(
        db,
        {
          source,
          units: await unitAreasOfSource(eventStore, sourceId),
          file,
          mediaType,
          dates: fileQuery.data.dates ?? (fileQuery.data.date === undefined ? undefined : [fileQuery.data.date]),
          variable: fileQuery.data.variable,
          label: fileQuery.data.label,
          requestedBy: actor.subject,
          now: systemClock.now(),
        },
        { asJob: false, logger },
      );
      process.stdout.write(
        `${path}: ${unchanged ? 'ingested before as' : 'ingested as'} ${ingestion.ingestion_id} (sha256 ${ingestion.sha256}): ` +
          `${ingestion.periods} periods, ${ingestion.locations} locations, ${ingestion.readings_written} readings and ` +
          `${ingestion.revisions_written} revisions written, ${ingestion.missing} missing\n`,
      );
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      const reasons = (error.errors ?? []).map((reason) => `\n  ${reason.path}: ${reason.message}`).join('');
      process.stderr.write(`${path}: ${error.code}: ${error.detail ?? error.title}${reasons}\nnothing was imported\n`);
      process.exitCode = 1;
    }
  } else {
    const outcome = await importReadingsCsv(
      db,
      eventStore,
      { subject: 'import-readings', organizationId },
      path,
      systemClock.now(),
    );
    if (outcome.status === 'refused') {
      const reasons = outcome.errors.map((error) => (error.path ? `${error.path}: ${error.message}` : error.message));
      process.stderr.write(`${path}:${outcome.line}: ${reasons.join('; ')}\nnothing was imported\n`);
      process.exitCode = 1;
    } else {
      const unchanged = outcome.accepted - outcome.inserted - outcome.updated;
      process.stdout.write(
        `${path}: ${outcome.accepted} readings accepted: ${outcome.inserted} inserted, ${outcome.updated} updated, ${unchanged} unchanged\n`,
      );
    }
  }
} finally {
  await eventStore.close();
  await db.destroy();
  await database.stop();
}
