import { connectProjector, readModelProjections, rebuildProjections } from '@cropcover/projector';
import { createLogger, loadConfigOrExit, resolveDatabaseUrl } from '@cropcover/runtime';

// `npm run rebuild`: replays the whole log into copies of the read-model tables while the live ones keep
// serving (and a running projector keeps them current), then swaps the copies in, in one transaction
// (projector/src/shadow-read-models.ts). `projection_rebuild_lag_events` on a running projector's
// /metrics shows it closing in on the head. Without DATABASE_URL it uses the embedded PostgreSQL under
// DATA_DIR, which the service must not be running on at the same time.

const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'projector-rebuild' });
const database = await resolveDatabaseUrl(config, logger);
try {
  const connections = await connectProjector(database.url, config.eventStoreUrl, logger, config.personalDataKeys);
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
