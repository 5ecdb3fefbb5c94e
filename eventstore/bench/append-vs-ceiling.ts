import { randomBytes } from 'node:crypto';
import { endPool } from '@cropcover/runtime';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import { migrateEventStore } from '../src/index';
import { createPostgresEventStore } from '../src/postgres/postgres-event-store';
import { type AppendOne, backendCpuMs, loadAverage, median, nodeCpuMs, percentile, runWriters } from './workload';

// Issue 12, "event store, 8 writers": our PostgreSQL event store against Emmett's PostgreSQL event store
// and against the raw ceiling (one autocommitted INSERT per event into a copy of our events table, no
// revision check), same workload, same run, cases interleaved round by round so the machine's load hits
// each alike. Runs in two scratch databases on the server of DATABASE_URL and drops them.
// Usage: npx tsx eventstore/bench/append-vs-ceiling.ts

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WRITERS = 8;
const APPENDS_PER_ROUND = Number(process.env.APPENDS_PER_ROUND ?? 4000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WARMUP_APPENDS = 800;

const databaseUrl = (name: string, applicationName: string): string => {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  url.searchParams.set('application_name', applicationName);
  return url.toString();
};

// Our table's columns, defaults, identity, constraints and indexes (`like … including all`); no trigger.
const RAW_TABLE = 'create table raw_events (like events including all)';
const RAW_INSERT: pg.QueryConfig = {
  name: 'bench.raw-insert',
  text: `insert into raw_events (stream_id, stream_revision, event_id, event_type, data, metadata)
         values ($1, $2, $3, $4, $5, $6)`,
};

interface Case {
  readonly name: string;
  readonly appendOne: AppendOne;
}

const main = async (): Promise<void> => {
  const suffix = randomBytes(4).toString('hex');
  const oursName = `cc_bench_es_ours_${suffix}`;
  const emmettName = `cc_bench_es_emmett_${suffix}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${oursName}`);
  await admin.query(`create database ${emmettName}`);
  const pool = new pg.Pool({ connectionString: databaseUrl(oursName, 'bench_ours'), max: WRITERS });
  const rawPool = new pg.Pool({ connectionString: databaseUrl(oursName, 'bench_raw'), max: WRITERS });
  const ours = createPostgresEventStore({ pool });
  const emmett = getPostgreSQLEventStore(databaseUrl(emmettName, 'bench_emmett'));
  try {
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    console.log(`PostgreSQL ${rows[0]?.server_version}, Node ${process.version}, ${WRITERS} writers`);
    console.log(`load average at start: ${loadAverage()}`);
    await migrateEventStore(pool);
    await pool.query(RAW_TABLE);

    const cases: Case[] = [
      {
        name: 'ours',
        appendOne: async (streamId, event, expected) =>
          (await ours.append(streamId, [event], expected ?? 'no_stream')).nextExpectedRevision,
      },
      {
        name: 'emmett',
        appendOne: async (streamId, event, expected) => {
          const result = await emmett.appendToStream(
            streamId,
            [{ type: event.type, data: event.data as Record<string, unknown>, metadata: { ...event.metadata } }],
            { expectedStreamVersion: expected === undefined ? 'STREAM_DOES_NOT_EXIST' : BigInt(expected) },
          );
          return Number(result.nextExpectedStreamVersion);
        },
      },
      {
        name: 'raw',
        appendOne: async (streamId, event, expected) => {
          const revision = expected === undefined ? 0 : expected + 1;
          const { metadata } = event;
          await rawPool.query({
            ...RAW_INSERT,
            values: [
              streamId,
              revision,
              metadata.event_id,
              event.type,
              JSON.stringify(event.data),
              JSON.stringify(metadata),
            ],
          });
          return revision;
        },
      },
    ];

    // Opens each pool's connections, prepares statements and lets Emmett create its schema; not measured.
    for (const { name, appendOne } of cases) await runWriters(appendOne, `${name}-warmup`, WRITERS, WARMUP_APPENDS);

    const rates = new Map<string, number[]>(cases.map(({ name }) => [name, []]));
    const latencies = new Map<string, number[]>(cases.map(({ name }) => [name, []]));
    const cpu = new Map<string, { node: number; postgres: number }>(
      cases.map(({ name }) => [name, { node: 0, postgres: 0 }]),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      // Each round starts with a different case, so none always runs right after the same one.
      for (let k = 0; k < cases.length; k++) {
        const { name, appendOne } = cases[(round + k) % cases.length]!;
        const [nodeBefore, postgresBefore] = [nodeCpuMs(), await backendCpuMs(admin, `bench_${name}`)];
        const started = performance.now();
        latencies.get(name)!.push(...(await runWriters(appendOne, `${name}-r${round}`, WRITERS, APPENDS_PER_ROUND)));
        rates.get(name)!.push(APPENDS_PER_ROUND / ((performance.now() - started) / 1000));
        const spent = cpu.get(name)!;
        spent.node += nodeCpuMs() - nodeBefore;
        spent.postgres += (await backendCpuMs(admin, `bench_${name}`)) - postgresBefore;
      }
    }

    const perEvent = (ms: number): string => (ms / (APPENDS_PER_ROUND * ROUNDS)).toFixed(3);
    console.log(`${APPENDS_PER_ROUND} single-event appends per round and case, ${ROUNDS} rounds, interleaved`);
    for (const { name } of cases) {
      const caseRates = rates.get(name)!;
      const caseLatencies = latencies.get(name)!;
      console.log(
        `${name.padEnd(6)}: median ${Math.round(median(caseRates))} events/s ` +
          `(rounds: ${caseRates.map((rate) => Math.round(rate)).join(', ')}); ` +
          `latency p50 ${percentile(caseLatencies, 50).toFixed(2)} ms, p99 ${percentile(caseLatencies, 99).toFixed(2)} ms; ` +
          `CPU per event: Node ${perEvent(cpu.get(name)!.node)} ms, PostgreSQL ${perEvent(cpu.get(name)!.postgres)} ms`,
      );
    }
    const [oursRate, emmettRate, rawRate] = ['ours', 'emmett', 'raw'].map((name) => median(rates.get(name)!));
    const toEmmett = oursRate! / emmettRate!;
    const toRaw = oursRate! / rawRate!;
    console.log(`ours / emmett = ${toEmmett.toFixed(2)} (goal ≥ 3: ${toEmmett >= 3 ? 'met' : 'NOT met'})`);
    console.log(`ours / raw    = ${toRaw.toFixed(2)} (goal ≥ 0.9: ${toRaw >= 0.9 ? 'met' : 'NOT met'})`);
    console.log(`load average at end: ${loadAverage()}`);
  } finally {
    await ours.close();
    await emmett.close();
    await endPool(pool);
    await endPool(rawPool);
    await admin.query(`drop database if exists ${oursName} with (force)`);
    await admin.query(`drop database if exists ${emmettName} with (force)`);
    await admin.end();
  }
};

await main();
