import { parseArgs } from 'node:util';
import { FAILURE_EXIT_CODES } from '@cropcover/verifiable-log';
import { verifyAuditBundleFiles } from '../audit-bundle/verify-audit-bundle-files';

// `npm run audit -- <policy_id>`: prints each event of the policy's stream —
// revision, type, when and by whom — and the policy's state after it, replayed through the domain.
// Then it recomputes the digests of the readings each evaluation recorded (with each value's label and
// file, when it recorded them), from today's readings and from the readings as they stood then (the
// revisions kept), says whether each still matches, and names the kept files the values came from.
// The replay reads the log, not the read models. Without DATABASE_URL it uses the embedded PostgreSQL under
// DATA_DIR (stop the all-in-one service first: one data directory serves one server).
//
// `npm run audit -- day <policy_id> <YYYY-MM-DD>` replays one monitored day, recorded in the log or not
// (SPEC §7 "What the log records"), from the monitor's round table, the stream and the readings as they
// stood then, and says whether it observes what was kept; exit 1 when it does not, or no such day was kept.
//
// `npm run audit -- export <policy_id> [--full] [--out <file>]` writes the policy's audit bundle
// (docs/audit-bundle.md); `--full` adds every leaf of the signed tree, so an event left out shows. When the
// signed tree holds a revision of the stream whose event the log no longer has, it still writes the bundle
// and exits with the verifier's code for it, GAP or TRUNCATED, naming the revision.
// `npm run audit -- verify <bundle> --key <verifier key or file> [--checkpoints <dir>] [--full]` checks one offline
// (`--full`: refuses a bundle without the leaves):
// it loads no configuration and opens no database (the service's modules are loaded only by the other
// commands), and exits 0, 2 for bad usage, or the failure's own code (FAILURE_EXIT_CODES).

const USAGE =
  'usage: audit <policy_id> | audit day <policy_id> <YYYY-MM-DD> | audit export <policy_id> [--full] [--out <file>] | audit verify <bundle> --key <key> [--key …] [--checkpoints <dir>] [--full]\n';

const usage = (): never => {
  process.stderr.write(USAGE);
  process.exit(2);
};

const verify = async (args: string[]): Promise<void> => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      key: { type: 'string', multiple: true },
      checkpoints: { type: 'string' },
      full: { type: 'boolean' },
    },
  });
  const [bundlePath] = positionals;
  if (!bundlePath || !values.key?.length) return usage();
  const verdict = await verifyAuditBundleFiles({
    bundlePath,
    keys: values.key,
    ...(values.checkpoints ? { checkpointsDir: values.checkpoints } : {}),
  });
  if (verdict.ok && values.full && !verdict.complete) {
    process.stderr.write('--full: the bundle has no leaves (export it with --full)\n');
    process.exitCode = 2;
    return;
  }
  if (verdict.ok) {
    process.stdout.write(
      `OK: ${verdict.events} events, each in the tree of ${verdict.checkpoint.size} signed by ${verdict.checkpoint.origin}${verdict.complete ? '; no other event of the stream is in it' : ''}\n`,
    );
    return;
  }
  process.stdout.write(`${verdict.failure}: ${verdict.detail}\n`);
  for (const note of verdict.evidence ?? []) process.stdout.write(`evidence:\n${note}`);
  process.exitCode = FAILURE_EXIT_CODES[verdict.failure];
};

/** The commands that read the service's database. */
type LogDeps =
  Parameters<typeof import('@cropcover/read-store').exportAuditBundle> extends [infer Pool, infer Db, ...unknown[]]
    ? { pool: Pool; db: Db; eventStore: import('@cropcover/eventstore').EventStore }
    : never;

const withLog = async (run: (deps: LogDeps) => Promise<void>): Promise<void> => {
  const { createEventStore } = await import('@cropcover/eventstore');
  const { createKysely, createLogger, createPool, loadConfigOrExit, resolveDatabaseUrl } = await import(
    '@cropcover/runtime'
  );
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: 'policy-audit' });
  const database = await resolveDatabaseUrl(config, logger);
  const pool = createPool(database.url, logger, { max: 1, applicationName: 'cropcover-policy-audit' });
  const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
  try {
    await run({ pool, db: createKysely(pool), eventStore });
  } finally {
    await eventStore.close();
    await pool.end();
    await database.stop();
  }
};

const exportBundle = async (args: string[]): Promise<void> => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string' }, full: { type: 'boolean' } },
  });
  const [policyId] = positionals;
  if (!policyId) return usage();
  const { policyStream } = await import('@cropcover/domain');
  const { exportAuditBundle } = await import('@cropcover/read-store');
  const { writeFile } = await import('node:fs/promises');
  await withLog(async ({ pool, db }) => {
    const exported = await exportAuditBundle(pool, db, policyStream(policyId), { full: values.full ?? false });
    if (!exported) {
      process.stderr.write('no signed checkpoint yet: nothing can be proven\n');
      process.exitCode = 1;
      return;
    }
    const text = `${JSON.stringify(exported.bundle, null, 2)}\n`;
    if (values.out) await writeFile(values.out, text);
    else process.stdout.write(text);
    if (exported.notYetCovered > 0)
      process.stderr.write(`${exported.notYetCovered} newer events are not covered by a checkpoint yet: left out\n`);
    // The bundle is written all the same (it is the evidence); the exit says it is not the whole stream.
    if (exported.failure) {
      process.stderr.write(`${exported.failure.failure}: ${exported.failure.detail}\n`);
      process.exitCode = FAILURE_EXIT_CODES[exported.failure.failure];
    }
  });
};

const replay = async (policyId: string): Promise<void> => {
  const { checkEvaluationDigests } = await import('@cropcover/application');
  const { policyStream } = await import('@cropcover/domain');
  const { replayPolicyAudit } = await import('@cropcover/query-api');
  await withLog(async ({ db, eventStore }) => {
    const events = await eventStore.readStream(policyStream(policyId));
    if (events.length === 0) {
      process.stderr.write(`no policy ${policyId} in the log\n`);
      process.exitCode = 1;
    }
    for (const step of replayPolicyAudit(events)) {
      process.stdout.write(`#${step.revision} ${step.type} at ${step.occurred_at} by ${step.actor}\n`);
      process.stdout.write(`  state after: ${JSON.stringify(step.state)}\n`);
    }
    for (const check of await checkEvaluationDigests(db, events)) {
      const { source_id, location, readings_from, readings_to, readings_used, files } = check.provenance;
      const verdict = check.matchesCurrent
        ? 'matches the readings'
        : `MISMATCH: the readings changed since; as they stood then they ${check.matchesAsEvaluated ? 'still' : 'do NOT'} reproduce it`;
      process.stdout.write(
        `digest #${check.revision} ${check.peril} (${readings_used} readings of ${source_id} at ${location}, ${readings_from}..${readings_to}): ${verdict}\n`,
      );
      // The kept files an auditor reads the values again from (DATA_DIR/index-files/<sha256>).
      for (const file of files ?? []) {
        process.stdout.write(`  file ${file.sha256} (${file.label ?? 'unlabelled'}): ${file.values} values\n`);
      }
    }
  });
};

const replayDay = async (args: string[]): Promise<void> => {
  const [policyId, day] = args;
  if (!policyId || !day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return usage();
  const { replayMonitoredDay } = await import('@cropcover/application');
  await withLog(async ({ db, eventStore }) => {
    const replay = await replayMonitoredDay({ db, eventStore }, policyId, day);
    if (replay === undefined) {
      process.stderr.write(`the monitor kept no day ${day} of policy ${policyId}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(
      `day ${day}: evaluation ${replay.evaluationId} at ${replay.evaluatedAt.toISOString()} on revision #${replay.streamRevision}, ${replay.recorded ? 'recorded in the log' : 'not recorded (conclusion unchanged)'}\n`,
    );
    process.stdout.write(
      `  kept:     ${JSON.stringify(replay.kept)}\n  replayed: ${JSON.stringify(replay.replayed)}\n`,
    );
    const verdict = replay.matches && replay.recordedAsConcluded;
    process.stdout.write(
      verdict
        ? 'OK: the replay observes what was kept and concludes as the log recorded\n'
        : `MISMATCH: ${replay.matches ? '' : 'the replay does not observe what was kept; '}${replay.recordedAsConcluded ? '' : 'the replay concludes otherwise than the log recorded'}\n`,
    );
    if (!verdict) process.exitCode = 1;
  });
};

const [command, ...rest] = process.argv.slice(2);
if (command === 'verify') await verify(rest);
else if (command === 'day') await replayDay(rest);
else if (command === 'export') await exportBundle(rest);
else if (command) await replay(command);
else usage();
