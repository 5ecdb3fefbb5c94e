import { accessSync, constants } from 'node:fs';
import { parseArgs } from 'node:util';
import { importReadingsCsv } from '@cropcover/application';
import { createEventStore, migrateEventStore } from '@cropcover/eventstore';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import {
  createKysely,
  createLogger,
  createPool,
  loadConfigOrExit,
  resolveDatabaseUrl,
  systemClock,
} from '@cropcover/runtime';

// Bulk history of index readings into the database the service uses (DATABASE_URL, else the embedded
// PostgreSQL under DATA_DIR — stop `npm start` first then, as both would start it):
//   npm run import-readings -- [--organization <org_id>] readings.csv
// A file by source (header source_id,location,index,date,value,source) may write any registered source:
// whoever runs this holds the database. A file per field (farm_id,field_id,index,date,value,source)
// writes the field source of --organization, as the endpoint does for its caller.
// Exit status: 0 imported, 1 refused (nothing written), 2 usage or configuration.

const USAGE =
  'usage: import-readings [--organization <org_id>] <file.csv>\n' +
  '  header source_id,location,index,date,value,source   or   farm_id,field_id,index,date,value,source\n';
let parsed: ReturnType<typeof parseArgs<{ options: { organization: { type: 'string' } }; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: { organization: { type: 'string' } }, allowPositionals: true });
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
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'import-readings' });
const database = await resolveDatabaseUrl(config, logger);
const pool = createPool(database.url, logger, { applicationName: 'cropcover-import-readings' });
const db = createKysely<ReadModels>(pool);
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
try {
  await migrateReadModels(db);
  if (!config.eventStoreUrl) await migrateEventStore(pool);
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
} finally {
  await eventStore.close();
  await db.destroy();
  await database.stop();
}
