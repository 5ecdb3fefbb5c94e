import { policyStory } from '@cropcover/projector/testing';
import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import pg from 'pg';
import { tokenFor } from '../src/support/api-client';
import { startService } from '../src/support/service-process';

// GET /insurance/policies with and without filters over 100,000 policies of the caller's organization
// (the worst case: every row is a candidate and counts towards `total`), against the all-in-one service
// started as the README does. The rows are inserted straight into the read model in one statement, each a
// copy of a real aggregate (issued by the domain) with its own id, farm, status and issue time; the
// per-status counts the projection keeps are computed from them.
// Run: npx tsx test/bench/policy-list.ts   (TEST_DATABASE_URL defaults to the local server)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const POLICIES = Number(process.env.BENCH_POLICIES ?? 100_000);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ORGANIZATION = 'org-bench';
const FARMS = 2_000;
const PERIL_SETS = [
  ['drought', 'flood'],
  ['flood', 'storm'],
  ['drought', 'vegetation_stress'],
  ['drought', 'flood', 'vegetation_stress', 'storm'],
] as const;

const templates = PERIL_SETS.map(
  (perils) =>
    policyStory({
      policyId: 'template',
      organizationId: ORGANIZATION,
      perils,
      termStart: '2026-04-01',
      termEnd: '2027-03-31',
      issuedAt: '2026-03-28T08:00:00.000Z',
    }).state,
);

const seed = async (databaseUrl: string): Promise<void> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Status: 70 % active, 10 % each claimed, lapsed, expired. Issue times one every 5 minutes.
    await client.query(
      `with template as (
         select ordinality - 1 as k, aggregate from unnest($1::jsonb[]) with ordinality as t(aggregate)
       ), generated as (
         select i, 'pol-' || lpad(i::text, 7, '0') as policy_id, 'farm-' || (i % $3) as farm_id,
           (array['active','active','active','active','active','active','active','claimed','lapsed','expired'])[i % 10 + 1]
             as status,
           timestamptz '2025-01-01T00:00:00Z' + i * interval '5 minutes' as issued_at,
           t.aggregate
         from generate_series(1, $2::int) as i join template t on t.k = i % $4
       )
       insert into policies (policy_id, organization_id, environment, farm_id, field_id, farm_name, field_name,
         field_area_ha, field_location, crop_type, sum_insured_minor, currency, premium_minor, perils, status,
         issued_at, term_start, term_end, platform_version, next_monitoring_date, aggregate, stream_revision)
       select policy_id, $5, 'sandbox', farm_id, 'north', 'Shamba', 'North plot', 2.5, '-1.29,36.82', 'maize',
         (aggregate->'issued'->>'sum_insured_minor')::bigint, 'KES', (aggregate->'issued'->>'premium_minor')::bigint,
         array(select jsonb_array_elements_text(aggregate->'issued'->'perils')), status, issued_at,
         date '2026-04-01', date '2027-03-31', 'bench', null,
         jsonb_set(jsonb_set(jsonb_set(jsonb_set(aggregate,
           '{issued,policy_id}', to_jsonb(policy_id)),
           '{issued,farm_id}', to_jsonb(farm_id)),
           '{issued,issued_at}', to_jsonb(to_char(issued_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
           '{status}', to_jsonb(status)),
         0
       from generated`,
      [templates.map((template) => JSON.stringify(template)), POLICIES, FARMS, templates.length, ORGANIZATION],
    );
    // The projection keeps these counts; rows inserted by hand need them too.
    await client.query(
      `insert into policy_counts (organization_id, status, perils, policies)
       select organization_id, status, array(select unnest(perils) order by 1), count(*)
       from policies group by 1, 2, 3`,
    );
    await client.query('vacuum analyze policies');
  } finally {
    await client.end();
  }
};

const database = await createTestDatabase('bench_policy_list');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
try {
  const seeding = performance.now();
  await seed(database.url);
  console.log(`Seeded ${POLICIES} policies in ${((performance.now() - seeding) / 1000).toFixed(1)} s.`);
  const headers = {
    authorization: `Bearer ${await tokenFor({ sub: 'bench-insurer', org: ORGANIZATION, roles: ['insurer'] })}`,
  };
  const scenarios: readonly [label: string, query: string][] = [
    ['no filter', ''],
    ['status=active', '?status=active'],
    ['status=lapsed', '?status=lapsed'],
    ['farm_id', '?farm_id=farm-123'],
    ['peril=storm', '?peril=storm'],
    ['peril=vegetation_stress&status=claimed', '?peril=vegetation_stress&status=claimed'],
    ['farm_id&peril&status', '?farm_id=farm-5&peril=flood&status=active'],
    ['page_size=100, page 500', '?page=500&page_size=100'],
  ];
  // Warm up: the JIT settles and the indexes are in the buffer cache.
  await autocannon({ url: `${service.baseUrl}/insurance/policies`, connections: 2, duration: 3, headers });
  console.log(`${POLICIES} policies in one organization; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run.`);
  console.log('| filter | requests/s | p50 ms | p99 ms | total matching | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [label, query] of scenarios) {
    const url = `${service.baseUrl}/insurance/policies${query}`;
    const { total } = (await (await fetch(url, { headers })).json()) as { total: number };
    const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
    console.log(
      `| ${label} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${total} | ${result.non2xx} | ${result.errors} |`,
    );
  }
} finally {
  await service.stop();
  await database.drop();
}
