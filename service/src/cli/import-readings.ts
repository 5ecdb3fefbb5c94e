import { accessSync, constants } from 'node:fs';
import { importReadingsCsv } from '@cropcover/application';
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
//   npm run import-readings -- readings.csv
// Exit status: 0 imported, 1 refused (nothing written), 2 usage or configuration.

const paths = process.argv.slice(2);
if (paths.length !== 1) {
  process.stderr.write('usage: import-csv-cli <file.csv>   (header: farm_id,field_id,index,date,value,source)\n');
  process.exit(2);
}
const path = paths[0]!;
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
try {
  await migrateReadModels(db);
  const outcome = await importReadingsCsv(db, path, systemClock.now());
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
  await db.destroy();
  await database.stop();
}
