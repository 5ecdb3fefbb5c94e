import { loadavg } from 'node:os';
import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { type RunningService, startService } from '../src/support/service-process';
import { benchCallers, postTo, seedThirtySeasons } from './sourced-cover';
import { PERILS } from './thirty-seasons';

// Quote and live evaluation latency with index sources and completeness (issue 9), beside the code from
// before that issue, in the same run: both services run at once on the same machine and PostgreSQL, and
// their measurements alternate, so a noisy neighbour weighs on both alike.
//   git worktree add /tmp/before-index-data 8456195^1 && (cd /tmp/before-index-data && npx pnpm@10 install)
//   BEFORE_CHECKOUT=/tmp/before-index-data npx tsx test/bench/index-data-http.ts
// The cover: drought, flood, vegetation stress and storm over 30 years of daily readings. Before, the
// readings are the field's; now rainfall comes from a 0.05° grid cell (one posted series) and NDVI and
// wind from the insurer's own field source, so pricing and evaluation go through source resolution,
// the per-peril history and the completeness rules.

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const before = process.env.BEFORE_CHECKOUT;
if (!before) throw new Error('set BEFORE_CHECKOUT to a checkout of the commit before issue 9 (8456195^1)');
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const { farmer, insurer, provider } = await benchCallers();

interface Subject {
  readonly label: string;
  readonly service: RunningService;
  readonly quote: autocannon.Options;
  readonly evaluate: autocannon.Options;
}

/** A farm and field with 30 seasons of history, read the way the checkout reads it, and policies on it. */
const prepare = async (label: string, service: RunningService, bySource: boolean): Promise<Subject> => {
  const { farm_id } = await postTo(service, '/farms/create', farmer, { name: 'Benchmark shamba', country: 'KE' });
  await postTo(service, `/farms/${farm_id}/access`, farmer, { organization_id: 'org-bench', purposes: ['insurance'] });
  const field = { name: 'Plot', area_ha: 2.5, location: { lat: -1.29, lon: 36.82 }, field_id: 'north' };
  const { field_id } = await postTo(service, `/farms/${farm_id}/fields`, farmer, field);
  const { cover, readings } = await seedThirtySeasons(service, provider, farm_id, field_id, bySource);
  const quoted = await postTo(service, '/insurance/quote', insurer, cover);
  const policyIds: string[] = [];
  for (let policy = 0; policy < 20; policy += 1) {
    policyIds.push((await postTo(service, '/insurance/policies', insurer, cover)).policy_id);
  }
  const evaluated = await postTo(service, `/insurance/policies/${policyIds[0]}/evaluate`, insurer, {});
  console.log(
    `${label}: ${readings} readings; quote rate ${quoted.rate}, methods ${PERILS.map((peril) => `${quoted.breakdown[peril].method}/${quoted.breakdown[peril].seasons_used}`).join(' ')}; ` +
      `evaluation ${evaluated.triggers_evaluated} of ${evaluated.triggers_total} perils evaluated`,
  );
  let next = 0;
  return {
    label,
    service,
    quote: { url: `${service.baseUrl}/insurance/quote`, method: 'POST', headers: insurer, body: JSON.stringify(cover) },
    evaluate: {
      url: service.baseUrl,
      requests: [
        {
          method: 'POST',
          headers: insurer,
          body: '{}',
          setupRequest: (request) => ({
            ...request,
            path: `/insurance/policies/${policyIds[next++ % policyIds.length]}/evaluate`,
          }),
        },
      ],
    },
  };
};

const env = { RATE_LIMIT_PER_MINUTE: '1000000', MONITOR_ENABLED: 'false', LOG_LEVEL: 'warn' };
const databases = [
  await createTestDatabase('bench_index_data_before'),
  await createTestDatabase('bench_index_data_now'),
];
const services: RunningService[] = [];
try {
  services.push(await startService({ ...env, DATABASE_URL: databases[0]!.url }, before));
  services.push(await startService({ ...env, DATABASE_URL: databases[1]!.url }));
  const subjects = [
    await prepare('before issue 9 (field readings)', services[0]!, false),
    await prepare('with sources and completeness (grid + field sources)', services[1]!, true),
  ];
  // One request at a time: latency without queueing behind the one Node process.
  const run = (options: autocannon.Options) =>
    autocannon({ connections: 1, duration: DURATION_SECONDS, timeout: 120, ...options });
  for (const subject of subjects) {
    await run({ ...subject.quote, duration: 3 });
    await run({ ...subject.evaluate, duration: 3 });
  }
  const loadBefore = loadavg().map((load) => load.toFixed(2));
  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [scenario, pick] of [
      ['quote, 4 perils, 30 seasons', (subject: Subject) => subject.quote],
      ['live evaluation, 4 perils', (subject: Subject) => subject.evaluate],
    ] as const) {
      const [old, now] = [await run(pick(subjects[0]!)), await run(pick(subjects[1]!))];
      rows.push(
        `| ${round} | ${scenario} | ${old.latency.p50} / ${old.latency.p99} | ${now.latency.p50} / ${now.latency.p99} | ${(now.latency.p50 / old.latency.p50).toFixed(2)} | ${old.non2xx + now.non2xx} |`,
      );
    }
  }
  console.log(
    `Load average before the timed runs: ${loadBefore.join(', ')}; after: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(', ')}`,
  );
  console.log(`${DURATION_SECONDS} s per timed run, one connection; p50 / p99 in ms.`);
  console.log('| round | scenario | before issue 9 | with sources | p50 ratio | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  for (const service of services) await service.stop();
  for (const database of databases) await database.drop();
}
