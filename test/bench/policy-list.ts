import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { tokenFor } from '../src/support/api-client';
import { startService } from '../src/support/service-process';
import { insertPolicyRows } from './policy-rows';

// GET /insurance/policies with and without filters over 100,000 policies of the caller's organization
// (the worst case: every row is a candidate and counts towards `total`), against the all-in-one service
// started as the README does, the rows inserted straight into the read model (policy-rows.ts).
// Run: npx tsx test/bench/policy-list.ts   (TEST_DATABASE_URL defaults to the local server)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const POLICIES = Number(process.env.BENCH_POLICIES ?? 100_000);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ORGANIZATION = 'org-bench';

const database = await createTestDatabase('bench_policy_list');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
try {
  const seeding = performance.now();
  await insertPolicyRows(database.url, {
    policies: POLICIES,
    organization: ORGANIZATION,
    farms: 2_000,
    termStart: '2026-04-01',
    termEnd: '2027-03-31',
  });
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
