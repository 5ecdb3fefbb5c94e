import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { policyStream } from '@cropcover/domain';
import { createPostgresEventStore, migrateEventStore } from '@cropcover/eventstore';
import { type CheckpointSink, directoryCheckpointSink, startAuditIntegrator } from '@cropcover/projector';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, endPool, systemClock } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import {
  type AuditBundle,
  generateSignerKey,
  parseSignerKey,
  parseVerifierKey,
  verifyAuditBundle,
} from '@cropcover/verifiable-log';
import pg from 'pg';
import { preChainAppendOne } from '../../eventstore/bench/pre-chain-append';
import {
  type AppendOne,
  backendCpuMs,
  loadAverage,
  median,
  nodeCpuMs,
  percentile,
  policyEvent,
  runWriters,
} from '../../eventstore/bench/workload';
import { apiClient, type Caller } from '../src/support/api-client';
import { grantInsurance } from '../src/support/farm-access';
import { repositoryRoot, startService } from '../src/support/service-process';

// Issue 20's benchmarks of the audit trail, in one run (docs/benchmarks.md, "Audit trail"):
// (a) chained appends against the append as it was before the chain (eventstore/bench/pre-chain-append.ts),
//     8 writers, rounds interleaved, on the same database;
// (b) the integrator's lag, from an append's commit (its answer) to the publication of the first signed
//     checkpoint covering it in the sink, at a steady 2,000 appends/s, integrator at its defaults;
// (c) `npm run audit -- verify` of a 1,000-event policy bundle exported from (b)'s log (its events were
//     spread through (b)'s load, so its proofs and consistency proofs are those of a busy log);
// (d) breach → webhook through the all-in-one service (evaluate over HTTP, log, dispatcher, the payout
//     gate waiting for a checkpoint, HTTP to a receiver here), from the breach's occurred_at.
// Run: npx tsx test/bench/audit-trail.ts (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432).
// BENCH_PARTS=d runs only the parts named (a, b and c together, d). BENCH_BASELINE=<another checkout,
// installed> runs (d) on its service too, in BENCH_TURNS turns with this checkout's, baseline first.

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const WRITERS = 8;
const APPENDS_PER_ROUND = Number(process.env.BENCH_APPENDS_PER_ROUND ?? 4_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LAG_RATE = Number(process.env.BENCH_LAG_RATE ?? 2_000);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 45);
const POLICY_EVENTS = 1_000;
const BREACHES = Number(process.env.BENCH_BREACHES ?? 200);
const BREACH_SPACING_MS = 100;
const PARTS = process.env.BENCH_PARTS ?? 'abcd';
const BASELINE = process.env.BENCH_BASELINE;
const TURNS = Number(process.env.BENCH_TURNS ?? 1);
/** The integrator's default (audit-integrator.ts, SPEC §7): a checkpoint every 2 s or 1,000 leaves. */
const CHECKPOINT_INTERVAL_MS = 2_000;
const DAY_MS = 86_400_000;

const logger = createLogger({ level: 'silent' });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => `${value.toFixed(0)} ms`;

// (a) ------------------------------------------------------------------------------------------------------

const measureAppends = async () => {
  const database = await createTestDatabase('bench_audit_appends');
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const chainedPool = createPool(database.url, logger, { max: WRITERS, applicationName: 'bench_chained' });
  const plainPool = createPool(database.url, logger, { max: WRITERS, applicationName: 'bench_plain' });
  const store = createPostgresEventStore({ pool: chainedPool });
  try {
    await migrateEventStore(chainedPool);
    const cases: { name: 'chained' | 'plain'; appendOne: AppendOne }[] = [
      {
        name: 'chained',
        appendOne: async (streamId, event, expected) =>
          (await store.append(streamId, [event], expected ?? 'no_stream')).nextExpectedRevision,
      },
      { name: 'plain', appendOne: preChainAppendOne(plainPool) },
    ];
    for (const { name, appendOne } of cases) await runWriters(appendOne, `${name}-warmup`, WRITERS, 800);
    const figures = new Map(cases.map(({ name }) => [name, { rates: [] as number[], node: 0, postgres: 0 }]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (let k = 0; k < cases.length; k++) {
        const { name, appendOne } = cases[(round + k) % cases.length]!;
        const figure = figures.get(name)!;
        const [nodeBefore, postgresBefore] = [nodeCpuMs(), await backendCpuMs(admin, `bench_${name}`)];
        const started = performance.now();
        await runWriters(appendOne, `${name}-r${round}`, WRITERS, APPENDS_PER_ROUND);
        figure.rates.push(APPENDS_PER_ROUND / ((performance.now() - started) / 1000));
        figure.node += nodeCpuMs() - nodeBefore;
        figure.postgres += (await backendCpuMs(admin, `bench_${name}`)) - postgresBefore;
      }
    }
    const events = APPENDS_PER_ROUND * ROUNDS;
    return Object.fromEntries(
      [...figures].map(([name, { rates, node, postgres }]) => [
        name,
        { rates, median: median(rates), nodeMs: node / events, postgresMs: postgres / events },
      ]),
    ) as Record<'chained' | 'plain', { rates: number[]; median: number; nodeMs: number; postgresMs: number }>;
  } finally {
    await store.close();
    await endPool(chainedPool);
    await endPool(plainPool);
    await admin.end();
    await database.drop();
  }
};

// (b) and (c) ----------------------------------------------------------------------------------------------

const POLICY_ID = 'PL-AUDIT-BENCH';

const measureLagAndVerify = async () => {
  const database = await createTestDatabase('bench_audit_lag');
  const pool = createPool(database.url, logger, { max: 12 });
  const db = createKysely<ReadModels>(pool);
  const store = createPostgresEventStore({ pool });
  const sinkDirectory = await mkdtemp(join(tmpdir(), 'cropcover-bench-checkpoints-'));
  const signer = parseSignerKey(generateSignerKey('cropcover.bench/audit/v1'));
  const published: { size: number; at: number }[] = [];
  let covered: { size: number; resolve: () => void } | undefined;
  const directory = directoryCheckpointSink(sinkDirectory);
  const sink: CheckpointSink = {
    publish: async (checkpoint) => {
      await directory.publish(checkpoint);
      published.push({ size: checkpoint.size, at: performance.now() });
      if (covered && checkpoint.size >= covered.size) covered.resolve();
    },
  };
  try {
    await migrateEventStore(pool);
    await migrateReadModels(db);
    const integrator = startAuditIntegrator({ pool, signer, origin: signer.name, sink, clock: systemClock, logger });

    // A steady rate: every few ms, the appends due by now, each a single-event append of its own, not awaited
    // (as requests of many clients would be); every `policyEvery`th goes to the audited policy.
    const total = LAG_RATE * LAG_SECONDS;
    const policyEvery = Math.floor(total / POLICY_EVENTS);
    const appended: { at: number; prepare: bigint }[] = [];
    const pending: Promise<void>[] = [];
    const started = performance.now();
    for (let sent = 0; sent < total; ) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * LAG_RATE));
      for (; sent < due; sent++) {
        const i = sent;
        const toPolicy = i % policyEvery === 0 && i / policyEvery < POLICY_EVENTS;
        const stream = toPolicy ? policyStream(POLICY_ID) : `policy-lag-${i % 1_000}`;
        pending.push(
          store.append(stream, [policyEvent(0, i)], 'any').then(({ position }) => {
            appended.push({ at: performance.now(), prepare: position.prepare });
          }),
        );
      }
      await pause(5);
    }
    await Promise.all(pending);
    const appendSeconds = (performance.now() - started) / 1000;
    const { rows: counted } = await pool.query<{ count: string }>('select count(*) from events');
    const leaves = Number(counted[0]?.count);
    await new Promise<void>((resolve) => {
      covered = { size: leaves, resolve };
      if ((published.at(-1)?.size ?? 0) >= leaves) resolve();
    });
    await integrator.stop();

    const { rows } = await pool.query<{ position_prepare: string; leaf_index: string }>(
      'select position_prepare, leaf_index from audit_leaves',
    );
    const leafOf = new Map(rows.map((row) => [row.position_prepare, Number(row.leaf_index)]));
    const lags = appended.map(({ at, prepare }) => {
      const leaf = leafOf.get(prepare.toString());
      if (leaf === undefined) throw new Error(`no leaf for position ${prepare}`);
      // Checkpoints are published in growing sizes: the first whose size exceeds the leaf covers it.
      let [low, high] = [0, published.length - 1];
      while (low < high) {
        const mid = (low + high) >> 1;
        if (published[mid]!.size > leaf) high = mid;
        else low = mid + 1;
      }
      return published[low]!.at - at;
    });
    const gaps = published.slice(1).map((checkpoint, i) => checkpoint.at - published[i]!.at);
    await pool.query('vacuum analyze audit_leaves, audit_tree');
    const { rows: sizes } = await pool.query<{ bytes: string }>(
      `select pg_total_relation_size('audit_leaves') + pg_total_relation_size('audit_tree') as bytes`,
    );

    // (c) The audited policy's bundle, exported and verified by the CLI as an auditor would run it.
    const bundlePath = join(sinkDirectory, '..', `${POLICY_ID}-${Date.now()}.json`);
    const cli = (...args: string[]) =>
      promisify(execFile)('node', ['--import', 'tsx', 'service/src/cli/audit.ts', ...args], {
        cwd: repositoryRoot,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
        maxBuffer: 64 * 1024 * 1024,
      });
    await cli('export', POLICY_ID, '--out', bundlePath);
    const bundleText = await readFile(bundlePath, 'utf8');
    const bundle = JSON.parse(bundleText) as AuditBundle;
    const vkey = signer.verifier.vkey;
    const cliRuns: number[] = [];
    let cliOutput = '';
    for (let run = 0; run < 3; run++) {
      const begun = performance.now();
      cliOutput = (await cli('verify', bundlePath, '--key', vkey, '--checkpoints', sinkDirectory)).stdout.trim();
      cliRuns.push(performance.now() - begun);
    }
    // The production image runs the same command compiled (scripts/production-build.ts), with no compiler
    // at start: `node dist/cli/audit.mjs verify`. Its verify path loads no npm package, so the bundles alone do.
    const image = join(await mkdtemp(join(tmpdir(), 'cropcover-bench-image-')), 'out');
    await promisify(execFile)('node', ['--import', 'tsx', 'scripts/production-build.ts', 'bundle', image], {
      cwd: repositoryRoot,
    });
    // Wall time counts the other jobs on the cores; the process's CPU time (GNU time) does not.
    const imageVerify = async (path: string, ...options: string[]) => {
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run < 3; run++) {
        const begun = performance.now();
        const args = ['verify', path, '--key', vkey, '--checkpoints', sinkDirectory, ...options];
        const { stdout, stderr } = await promisify(execFile)('/usr/bin/time', [
          '-f',
          'cpu %U %S',
          'node',
          join(image, 'dist/cli/audit.mjs'),
          ...args,
        ]);
        wall.push(performance.now() - begun);
        if (!stdout.startsWith('OK')) throw new Error(`the image's verify said ${stdout}`);
        const [user, system] = (/cpu ([\d.]+) ([\d.]+)/.exec(stderr) ?? []).slice(1).map(Number);
        cpu.push(((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000);
      }
      return { wall, cpu };
    };
    const { wall: imageRuns, cpu: imageCpu } = await imageVerify(bundlePath);
    // Full mode: the bundle carries every leaf of the signed tree, and verify rebuilds its root.
    const fullPath = bundlePath.replace(/\.json$/, '-full.json');
    await cli('export', POLICY_ID, '--full', '--out', fullPath);
    const full = await imageVerify(fullPath, '--full');
    const fullBytes = (await readFile(fullPath)).length;
    await rm(dirname(image), { recursive: true });
    const held = await Promise.all(
      (await readdir(sinkDirectory)).map((name) => readFile(join(sinkDirectory, name), 'utf8')),
    );
    const inProcess: number[] = [];
    for (let run = 0; run < 5; run++) {
      const begun = performance.now();
      const verdict = verifyAuditBundle(JSON.parse(bundleText) as AuditBundle, [parseVerifierKey(vkey)], held);
      inProcess.push(performance.now() - begun);
      if (!verdict.ok) throw new Error(`the bundle did not verify: ${verdict.failure} ${verdict.detail}`);
    }

    return {
      lag: {
        appends: appended.length,
        rate: appended.length / appendSeconds,
        leaves,
        checkpoints: published.length,
        gapMedian: median(gaps),
        treeBytesPerLeaf: Number(sizes[0]!.bytes) / leaves,
        p50: percentile(lags, 50),
        p99: percentile(lags, 99),
        max: Math.max(...lags),
      },
      verify: {
        events: bundle.events.length,
        bytes: bundleText.length,
        consistencyProofs: bundle.consistency.length,
        heldCheckpoints: held.length,
        proofLength: bundle.events[0]?.proof.length ?? 0,
        cliOutput,
        command: `npm run audit -- verify ${bundlePath} --key ${vkey} --checkpoints ${sinkDirectory}`,
        cliMedian: median(cliRuns),
        cliRuns,
        imageMedian: median(imageRuns),
        imageRuns,
        imageCpuMedian: median(imageCpu),
        fullBytes,
        fullMedian: median(full.wall),
        fullRuns: full.wall,
        fullCpuMedian: median(full.cpu),
        inProcessMedian: median(inProcess),
      },
    };
  } finally {
    await store.close();
    await db.destroy();
    await database.drop();
  }
};

// (d) ------------------------------------------------------------------------------------------------------

const measureBreachToWebhook = async (cwd: string) => {
  const dateOf = (at: number): string => new Date(at).toISOString().slice(0, 10);
  const arrivals = new Map<string, { at: number; eventId: string; audited: boolean }>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { policy_id: string; event_id: string; audit?: unknown };
      };
      if (!arrivals.has(data.policy_id))
        arrivals.set(data.policy_id, { at, eventId: data.event_id, audited: data.audit !== undefined });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const database = await createTestDatabase('bench_audit_webhook');
  const checkpointDir = await mkdtemp(join(tmpdir(), 'cropcover-bench-service-checkpoints-'));
  const service = await startService(
    {
      DATABASE_URL: database.url,
      AUDIT_CHECKPOINT_DIR: checkpointDir,
      WEBHOOK_ALLOW_INSECURE: 'true',
      MONITOR_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...(process.env.KAFKA_BROKERS ? { KAFKA_BROKERS: process.env.KAFKA_BROKERS } : {}),
    },
    cwd,
  );
  const api = apiClient(service.baseUrl);
  try {
    const insurer: Caller = { sub: 'underwriter-bench', org: 'org-bench', roles: ['insurer'] };
    const owner: Caller = { sub: 'farmer-bench', givenName: 'Amina', familyName: 'Otieno' };
    const dataProvider: Caller = { sub: 'weather-feed', org: insurer.org, roles: ['data_provider'] };
    const subscription = await api.post('/insurance/webhooks/trigger-events', insurer, { url: receiverUrl });
    if (subscription.status !== 201) throw new Error(`subscribe: ${subscription.status}`);
    const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
    await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
    const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: 'plot-1',
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
    });
    const termStartMs = Date.parse(`${dateOf(Date.now())}T00:00:00Z`) - 5 * DAY_MS;
    const policyIds: string[] = [];
    for (let i = 0; i < BREACHES; i++) {
      const policy = await api.post('/insurance/policies', insurer, {
        farm_id: farm.body.farm_id,
        field_id: field.body.field_id,
        perils: ['flood'],
        sum_insured: 10000,
        currency: 'USD',
        term_start: dateOf(termStartMs),
        term_end: dateOf(termStartMs + 90 * DAY_MS),
      });
      if (policy.status !== 201) throw new Error(`issue: ${policy.status} ${JSON.stringify(policy.body)}`);
      policyIds.push(policy.body.policy_id);
    }
    // 180 mm over 5 days on one field against the flood trigger's 150 mm: every policy on it breaches. Sent
    // after the policies are issued: a policy is refused on a loss already known.
    const readings = await api.post('/insurance/index-readings', dataProvider, {
      readings: [40, 40, 40, 40, 20].map((value, offset) => ({
        farm_id: farm.body.farm_id,
        field_id: field.body.field_id,
        index: 'rainfall_mm',
        date: dateOf(termStartMs + offset * DAY_MS),
        value,
      })),
    });
    if (readings.status !== 200) throw new Error(`readings: ${readings.status}`);
    const answered = new Map<string, number>();
    await Promise.all(
      policyIds.map(async (policyId, i) => {
        await pause(i * BREACH_SPACING_MS);
        const response = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
        if (response.status !== 200) throw new Error(`evaluate: ${response.status}`);
        answered.set(policyId, Date.now());
      }),
    );
    while (policyIds.some((id) => !arrivals.has(id))) await pause(50);

    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    try {
      const eventIds = policyIds.map((id) => arrivals.get(id)!.eventId);
      const { rows: occurred } = await check.query<{ event_id: string; occurred_at: string }>(
        `select event_id::text, metadata->>'occurred_at' as occurred_at from events_json where event_id = any($1::uuid[])`,
        [eventIds],
      );
      const occurredAt = new Map(occurred.map((row) => [row.event_id, Date.parse(row.occurred_at)]));
      const { rows: signed } = await check.query<{ gap_ms: number }>(
        `select extract(epoch from signed_at - lag(signed_at) over (order by tree_size)) * 1000 as gap_ms
           from audit_checkpoints`,
      );
      const fromBreach = policyIds.map((id) => {
        const arrival = arrivals.get(id)!;
        const breachAt = occurredAt.get(arrival.eventId);
        if (breachAt === undefined) throw new Error(`no breach event ${arrival.eventId}`);
        return arrival.at - breachAt;
      });
      const fromResponse = policyIds.map((id) => arrivals.get(id)!.at - answered.get(id)!);
      const gaps = signed.map((row) => Number(row.gap_ms)).filter((gap) => gap > 0);
      return {
        breaches: policyIds.length,
        audited: policyIds.filter((id) => arrivals.get(id)!.audited).length,
        p50: percentile(fromBreach, 50),
        p99: percentile(fromBreach, 99),
        max: Math.max(...fromBreach),
        responseP50: percentile(fromResponse, 50),
        responseP99: percentile(fromResponse, 99),
        signedGapMedian: median(gaps),
        kafka: process.env.KAFKA_BROKERS !== undefined,
      };
    } finally {
      await check.end();
    }
  } finally {
    await service.stop();
    receiver.close();
    await database.drop();
  }
};

// ----------------------------------------------------------------------------------------------------------

const { rows: version } = await (async () => {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query<{ server_version: string }>('show server_version');
  } finally {
    await client.end();
  }
})();
console.log(
  `${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}, PostgreSQL ${version[0]?.server_version} on the same cores`,
);
console.log(`load average at start: ${loadAverage()}`);
const rows: (readonly [string, string, string, boolean])[] = [];

if (PARTS.includes('a')) {
  const appends = await measureAppends();
  console.log(`(a) done, load average ${loadAverage()}`);
  const ratio = appends.chained.median / appends.plain.median;
  // CPU per event holds still when other jobs share the cores; the rates of single rounds do not.
  const cpuRatio =
    (appends.plain.nodeMs + appends.plain.postgresMs) / (appends.chained.nodeMs + appends.chained.postgresMs);
  const rounds = (rates: number[]) => rates.map((rate) => Math.round(rate)).join(', ');
  console.log(
    `\n(a) ${APPENDS_PER_ROUND} single-event appends per round and case, ${WRITERS} writers, ${ROUNDS} rounds`,
  );
  for (const name of ['chained', 'plain'] as const) {
    const figure = appends[name];
    console.log(
      `  ${name.padEnd(7)}: median ${Math.round(figure.median)} events/s (rounds ${rounds(figure.rates)}); CPU per event Node ${figure.nodeMs.toFixed(3)} ms, PostgreSQL ${figure.postgresMs.toFixed(3)} ms`,
    );
  }
  rows.push(
    ['(a) chained / plain appends, median rates', `${ratio.toFixed(2)}×`, '≥ 0.8×', ratio >= 0.8],
    ['(a) the same by CPU per event (plain ÷ chained)', `${cpuRatio.toFixed(2)}×`, '≥ 0.8×', cpuRatio >= 0.8],
  );
  console.log(`  chained ÷ plain: rates ${ratio.toFixed(2)}×; CPU per event (plain ÷ chained) ${cpuRatio.toFixed(2)}×`);
}

if (PARTS.includes('b') || PARTS.includes('c')) {
  const { lag, verify } = await measureLagAndVerify();
  console.log(`(b), (c) done, load average ${loadAverage()}`);
  console.log(
    `\n(b) ${lag.appends} appends at ${Math.round(lag.rate)}/s (asked ${LAG_RATE}/s for ${LAG_SECONDS} s), ${lag.leaves} leaves, ${lag.checkpoints} checkpoints published, median ${ms(lag.gapMedian)} apart`,
  );
  console.log(`  commit → covering checkpoint published: p50 ${ms(lag.p50)}, p99 ${ms(lag.p99)}, max ${ms(lag.max)}`);
  console.log(
    `  the tree's tables (audit_leaves, audit_tree, indexes): ${Math.round(lag.treeBytesPerLeaf)} bytes per leaf`,
  );
  console.log(
    `\n(c) bundle of ${verify.events} events, ${verify.bytes} bytes, ${verify.proofLength} hashes per inclusion proof, ${verify.consistencyProofs} consistency proofs; ${verify.heldCheckpoints} checkpoints held`,
  );
  console.log(`  CLI: "${verify.cliOutput}"`);
  console.log(`  to run again: ${verify.command}`);
  console.log(
    `  full mode (\`export --full\`, \`verify --full\`): bundle ${verify.fullBytes} bytes; the image's CLI median ${ms(verify.fullMedian)} (runs ${verify.fullRuns.map(ms).join(', ')}), CPU median ${ms(verify.fullCpuMedian)}`,
  );
  console.log(
    `  \`npm run audit -- verify\` as a checkout runs it (node --import tsx): median ${ms(verify.cliMedian)} (runs ${verify.cliRuns.map(ms).join(', ')})`,
  );
  console.log(
    `  the image's \`node dist/cli/audit.mjs verify\`: median ${ms(verify.imageMedian)} (runs ${verify.imageRuns.map(ms).join(', ')}), CPU (user + system) median ${ms(verify.imageCpuMedian)}; the verification in process: median ${verify.inProcessMedian.toFixed(1)} ms`,
  );
  rows.push(
    [
      '(b) integrator lag p99 at 2,000/s',
      ms(lag.p99),
      `< ${ms(CHECKPOINT_INTERVAL_MS)}`,
      lag.p99 < CHECKPOINT_INTERVAL_MS,
    ],
    [
      '(c) verify a 1,000-event bundle: the image CLI',
      ms(verify.imageMedian),
      '< 1000 ms',
      verify.imageMedian < 1_000 && verify.events === POLICY_EVENTS,
    ],
    ['(c) the same, CPU of the process', ms(verify.imageCpuMedian), '< 1000 ms', verify.imageCpuMedian < 1_000],
    [
      '(c) full mode (every leaf of the tree), the image CLI',
      `${ms(verify.fullMedian)} (CPU ${ms(verify.fullCpuMedian)})`,
      '< 1000 ms',
      verify.fullMedian < 1_000,
    ],
    ['(c) the same through tsx (a checkout)', ms(verify.cliMedian), '< 1000 ms', verify.cliMedian < 1_000],
    [
      '(c) verify a 1,000-event bundle (in process)',
      `${verify.inProcessMedian.toFixed(1)} ms`,
      '< 1000 ms',
      verify.inProcessMedian < 1_000,
    ],
  );
}

if (PARTS.includes('d')) {
  const checkouts = [
    ...(BASELINE ? [{ name: 'baseline', cwd: BASELINE }] : []),
    { name: 'this checkout', cwd: repositoryRoot },
  ];
  for (let turn = 1; turn <= TURNS; turn++)
    for (const { name, cwd } of checkouts) {
      const webhook = await measureBreachToWebhook(cwd);
      console.log(`(d) ${name}, turn ${turn}: done, load average ${loadAverage()}`);
      console.log(
        `\n(d) ${webhook.breaches} breaches, one every ${BREACH_SPACING_MS} ms over HTTP${webhook.kafka ? ', through Kafka' : ''}; ${webhook.audited} deliveries carried their proof; service checkpoints signed a median ${ms(webhook.signedGapMedian)} apart`,
      );
      console.log(
        `  breach occurred_at → arrival: p50 ${ms(webhook.p50)}, p99 ${ms(webhook.p99)}, max ${ms(webhook.max)}; evaluate response → arrival: p50 ${ms(webhook.responseP50)}, p99 ${ms(webhook.responseP99)}`,
      );
      rows.push([
        `(d) breach → webhook p99, ${name}, turn ${turn}`,
        ms(webhook.p99),
        `< ${ms(CHECKPOINT_INTERVAL_MS + 1_000)}`,
        webhook.p99 < CHECKPOINT_INTERVAL_MS + 1_000 && webhook.audited === webhook.breaches,
      ]);
    }
}

console.log('\n| goal | figure | bar | met |\n| --- | --- | --- | --- |');
for (const [goal, figure, bar, met] of rows) console.log(`| ${goal} | ${figure} | ${bar} | ${met ? 'yes' : 'NO'} |`);
console.log(`load average at end: ${loadAverage()}`);
