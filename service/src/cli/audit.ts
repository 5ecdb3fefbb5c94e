import { checkEvaluationDigests } from '@cropcover/application';
import { policyStream } from '@cropcover/domain';
import { createEventStore } from '@cropcover/eventstore';
import { replayPolicyAudit } from '@cropcover/query-api';
import type { ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, loadConfigOrExit, resolveDatabaseUrl } from '@cropcover/runtime';

// `npm run audit -- <policy_id>`: prints each event of the policy's stream —
// revision, type, when and by whom — and the policy's state after it, replayed through the domain.
// Then it recomputes the digest of the readings each evaluation recorded, from today's readings and from
// the readings as they stood then (the revisions kept), and says whether each still matches.
// The replay reads the log, not the read models. Without DATABASE_URL it uses the embedded PostgreSQL under
// DATA_DIR (stop the all-in-one service first: one data directory serves one server).

const policyId = process.argv[2];
if (!policyId) {
  process.stderr.write('usage: audit-cli <policy_id>\n');
  process.exit(2);
}
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'policy-audit' });
const database = await resolveDatabaseUrl(config, logger);
const pool = createPool(database.url, logger, { max: 1, applicationName: 'cropcover-policy-audit' });
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
try {
  const events = await eventStore.readStream(policyStream(policyId));
  if (events.length === 0) {
    process.stderr.write(`no policy ${policyId} in the log\n`);
    process.exitCode = 1;
  }
  for (const step of replayPolicyAudit(events)) {
    process.stdout.write(`#${step.revision} ${step.type} at ${step.occurred_at} by ${step.actor}\n`);
    process.stdout.write(`  state after: ${JSON.stringify(step.state)}\n`);
  }
  for (const check of await checkEvaluationDigests(createKysely<ReadModels>(pool), events)) {
    const { source_id, location, readings_from, readings_to, readings_used } = check.provenance;
    const verdict = check.matchesCurrent
      ? 'matches the readings'
      : `MISMATCH: the readings changed since; as they stood then they ${check.matchesAsEvaluated ? 'still' : 'do NOT'} reproduce it`;
    process.stdout.write(
      `digest #${check.revision} ${check.peril} (${readings_used} readings of ${source_id} at ${location}, ${readings_from}..${readings_to}): ${verdict}\n`,
    );
  }
} finally {
  await eventStore.close();
  await pool.end();
  await database.stop();
}
