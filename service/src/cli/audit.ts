import { policyStream } from '@cropcover/domain';
import { createEventStore } from '@cropcover/eventstore';
import { replayPolicyAudit } from '@cropcover/query-api';
import { createLogger, createPool, loadConfigOrExit, resolveDatabaseUrl } from '@cropcover/runtime';

// `npm run audit -- <policy_id>`: prints each event of the policy's stream —
// revision, type, when and by whom — and the policy's state after it, replayed through the domain.
// Reads the log, not the read models. Without DATABASE_URL it uses the embedded PostgreSQL under
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
} finally {
  await eventStore.close();
  await pool.end();
  await database.stop();
}
