import { connectProjector, readModelProjections, rebuildProjections } from '@cropcover/projector';
import { createLogger, loadConfigOrExit, resolveDatabaseUrl } from '@cropcover/runtime';

// `npm run rebuild`: empties the read models and replays the whole log into
// them. Stop the projector first (the projector process, or the all-in-one service that runs it): one
// still running would keep applying from its old checkpoint into the emptied tables. Queries see the
// read models fill up while it runs. Without DATABASE_URL it uses the embedded PostgreSQL under DATA_DIR.

const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'projector-rebuild' });
const database = await resolveDatabaseUrl(config, logger);
try {
  const connections = await connectProjector(database.url, config.eventStoreUrl, logger);
  try {
    const result = await rebuildProjections({ ...connections, projections: readModelProjections });
    logger.info(
      { ...result, eventsPerSecond: Math.round(result.eventsPerSecond), elapsedMs: Math.round(result.elapsedMs) },
      'read models rebuilt',
    );
  } finally {
    await connections.close();
  }
} finally {
  await database.stop();
}
