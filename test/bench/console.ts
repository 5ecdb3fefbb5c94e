import { availableParallelism, loadavg } from 'node:os';
import { createPostgresEventStore } from '@cropcover/eventstore';
import { policyStory } from '@cropcover/projector/testing';
import { createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { tokenFor } from '../src/support/api-client';
import { addDays, today } from '../src/support/calendar';
import { chromiumPath, launchChromium } from '../src/support/chromium';
import { startService } from '../src/support/service-process';
import { insertPolicyRows } from './policy-rows';

// Issue 21: each console page's first meaningful render over 10,000 policies of the caller's organization,
// in headless Chromium against the all-in-one service started as the README does. Every sample is a
// fresh browser context (nothing cached, sessionStorage holding the token) loading the page's address;
// the time is the page's own clock (from navigation start) at the first frame that shows its content:
// the policy rows for the list, every cover's chart for a policy. The anchor, in the same run: the same
// page's API calls made from Node, one after the other, to tell the browser's share from the API's; and
// the sign-in page, which calls no API: what any page costs a fresh browser context on this machine.
// The programme holds all 10,000 policies in 2,000 zones (one per farm, five policies each), its exposure
// rows as the book keeper projects them; the page shows the first 100 zones, fullest first.
// Policies have a year's term 240 days in (the window so far is 241 days of three indexes), one
// evaluation per peril recorded yesterday.
// The audit page needs streams in the log (the 10,000 rows above are read-model rows only): AUDITED more
// policies are appended through the event store as the command side writes them, each evaluated through
// the API every day of its term so far (241 events, three pages of proofs: the longest stream a policy
// has this far into its term), and the bench waits until the audit integrator has signed a checkpoint
// covering every event, as the audit e2e test does. Shown = the first frame where every event carries its
// proven mark, each leaf and proof checked in the browser.
// Run: npx tsx test/bench/console.ts   (TEST_DATABASE_URL defaults to the local server; BENCH_SAMPLES,
// BENCH_PAGES, BENCH_POLICIES; BENCH_PROFILE=1 adds a JavaScript profile of one sample of each page)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const POLICIES = Number(process.env.BENCH_POLICIES ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const ORGANIZATION = 'org-bench';
const TERM_START = addDays(today(), -240);
const TERM_END = addDays(TERM_START, 364);

const AUDITED = 10;

if (chromiumPath === undefined) throw new Error('no Chromium: apt-get install chromium, or set CHROMIUM_PATH');

/** A year of the template's three readings (the organization's own, of farm-1/north) and one evaluation
 *  per peril of every policy, as of yesterday. */
const seedReadingsAndEvaluations = async (databaseUrl: string): Promise<void> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into index_readings (source_id, location, index, date, value, note, revision, recorded_at, recorded_by)
       select 'organization-fields:' || $1, 'farm-1/north', r.index, d::date,
         case r.index when 'rainfall_mm' then round((4 + 4 * sin(extract(doy from d) / 9.0))::numeric, 1)
                      when 'ndvi' then round((0.5 + 0.2 * sin(extract(doy from d) / 30.0))::numeric, 3)
                      else round((8 + 6 * cos(extract(doy from d) / 5.0))::numeric, 1) end,
         null, 1, now(), 'bench'
       from generate_series($2::date, $3::date, interval '1 day') as d,
         (values ('rainfall_mm'), ('ndvi'), ('wind_speed_ms')) as r(index)`,
      [ORGANIZATION, TERM_START, addDays(today(), -1)],
    );
    await client.query(
      `insert into policy_evaluations (evaluation_id, peril, policy_id, organization_id, trigger_index,
         observed_value, threshold, breached, severity, as_of, window_start, window_end, evaluated_at,
         days_with_reading, days_in_window)
       select p.policy_id || '-' || peril, peril, p.policy_id, p.organization_id, 'bench_index', 100, 150, false, 0,
         $1::date, p.term_start, $1::date, now(), 240, 240
       from policies p, unnest(p.perils) as peril`,
      [addDays(today(), -1)],
    );
    await client.query('vacuum analyze index_readings, policy_evaluations');
  } finally {
    await client.end();
  }
};

/** A programme made through the API (so the service knows it), its book seeded as the projection keeps it:
 *  every policy in it, a zone per farm with a capacity, so utilisation runs from a tenth to full. */
const seedProgramme = async (databaseUrl: string, baseUrl: string, token: string): Promise<string> => {
  const created = await fetch(`${baseUrl}/insurance/programmes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench book', currency: 'KES', capacity: { zone_default: 1_000_000 } }),
  });
  if (created.status !== 201) throw new Error(`programme: ${created.status} ${await created.text()}`);
  const { programme_id: programmeId } = (await created.json()) as { programme_id: string };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into programme_policies (policy_id, programme_id, issued_on, sum_insured_minor, premium_minor,
         claims_minor, claims_revision)
       select policy_id, $1, issued_at::date, sum_insured_minor, premium_minor, 0, 0 from policies`,
      [programmeId],
    );
    await client.query(
      `insert into programme_zone_exposure (programme_id, source_id, location, policies, sum_insured_minor,
         premium_minor, capacity_minor)
       select $1, 'organization-fields:' || organization_id, farm_id || '/north', count(*), sum(sum_insured_minor),
         sum(premium_minor), sum(sum_insured_minor) * 10 / (1 + abs(hashtext(farm_id)) % 10)
       from policies group by organization_id, farm_id`,
      [programmeId],
    );
    await client.query('vacuum analyze programme_policies, programme_zone_exposure');
  } finally {
    await client.end();
  }
  return programmeId;
};

const auditedPolicy = (sample: number): string => `audited-${String(1 + (sample % AUDITED)).padStart(2, '0')}`;

/** AUDITED policies appended to the log, each with an evaluation (no breach) for every day of its term so
 *  far; resolves once a signed checkpoint covers every event of the log, so every proof is against it. */
const seedAuditedPolicies = async (databaseUrl: string, baseUrl: string, token: string): Promise<number> => {
  const pool = createPool(databaseUrl, createLogger({ level: 'silent' }), { max: 2 });
  let events = 0;
  try {
    const store = createPostgresEventStore({ pool });
    for (let sample = 0; sample < AUDITED; sample += 1) {
      const story = policyStory({
        policyId: auditedPolicy(sample),
        organizationId: ORGANIZATION,
        subject: 'bench-insurer',
        perils: ['flood'],
        termStart: TERM_START,
        termEnd: TERM_END,
        issuedAt: `${addDays(TERM_START, -4)}T08:00:00.000Z`,
      });
      const readings: { date: string; value: number; revision: number }[] = [];
      for (let day = 0; day <= 240; day += 1) {
        const date = addDays(TERM_START, day);
        readings.push({ date, value: 0.5, revision: 1 });
        story.evaluate({ flood: [...readings] }, `${date}T18:00:00.000Z`);
      }
      const appended = story.takeNew();
      await store.append(story.streamId, appended, 'no_stream');
      events += appended.length;
    }
  } finally {
    await pool.end();
  }
  const logSize = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return Number((await client.query('select count(*) as count from events')).rows[0].count);
    } finally {
      await client.end();
    }
  };
  const appended = await logSize();
  // The integrator signs every few seconds: poll its newest checkpoint until it covers the whole log.
  for (const deadline = Date.now() + 120_000; ; ) {
    const latest = await fetch(`${baseUrl}/audit/checkpoints/latest`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (latest.ok && ((await latest.json()) as { size: number }).size >= appended) break;
    if (Date.now() > deadline) throw new Error(`no checkpoint covers the log's ${appended} events after 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return events / AUDITED;
};

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Scenario {
  /** For BENCH_PAGES and the table. */
  readonly name: string;
  readonly label: string;
  /** The console address of a sample. */
  readonly page: (sample: number) => string;
  /** In the page: its clock once it shows what it is for, else false. A function, not a string: the
   *  console's Content-Security-Policy forbids evaluating strings. */
  readonly shown: () => number | false;
  /** Whether the sample's browser holds the token (default true). */
  readonly signedIn?: boolean;
  /** The API calls the page makes, for the anchor. */
  readonly api: (sample: number) => readonly string[];
}

const policyOf = (sample: number): string => `pol-${String(1 + ((sample * 7919) % POLICIES)).padStart(7, '0')}`;

// Run in the page (no DOM types here).
const signInShown = (): number | false =>
  (globalThis as any).document.querySelector('textarea#token') !== null && performance.now();
const listShown = (): number | false =>
  (globalThis as any).document.querySelector('[data-policies] tbody tr') !== null && performance.now();
const chartsShown = (): number | false => {
  const document = (globalThis as any).document;
  const covers = document.querySelectorAll('[data-cover]').length;
  return covers > 0 && document.querySelectorAll('[data-cover] svg[data-chart]').length === covers && performance.now();
};

const programmeShown = (): number | false => {
  const document = (globalThis as any).document;
  return (
    document.querySelector('[data-exposure] [data-zone]') !== null &&
    document.querySelector('[data-results]') !== null &&
    performance.now()
  );
};

const auditShown = (): number | false => {
  const document = (globalThis as any).document;
  const rows = document.querySelectorAll('[data-events] tbody tr').length;
  return (
    rows > 0 &&
    document.querySelectorAll('[data-events] tbody tr [data-mark="proven"]').length === rows &&
    performance.now()
  );
};

let programmeId = '';
let auditedEvents = 0;

const allScenarios: readonly Scenario[] = [
  {
    name: 'floor',
    label: 'the floor: the sign-in page (no token, no API call)',
    page: () => '/console/',
    shown: signInShown,
    signedIn: false,
    api: () => [],
  },
  {
    name: 'policies',
    label: 'policies, first page',
    page: () => '/console/',
    shown: listShown,
    api: () => ['/insurance/policies'],
  },
  {
    name: 'policies-filtered',
    label: 'policies, peril=storm&status=active, page 50',
    page: () => '/console/?peril=storm&status=active&page=50',
    shown: listShown,
    api: () => ['/insurance/policies?peril=storm&status=active&page=50'],
  },
  {
    name: 'policy',
    label: 'a policy (2–4 covers, 241 days each)',
    page: (sample) => `/console/policies/${policyOf(sample)}`,
    shown: chartsShown,
    api: (sample) => [
      `/insurance/policies/${policyOf(sample)}`,
      `/insurance/policies/${policyOf(sample)}/trigger-courses`,
      `/insurance/policies/${policyOf(sample)}/evaluations?page=1&page_size=100`,
    ],
  },
  {
    name: 'programme',
    label: 'a programme of 10,000 policies in 2,000 zones',
    page: () => `/console/programmes/${programmeId}`,
    shown: programmeShown,
    api: () => [
      `/insurance/programmes/${programmeId}`,
      `/insurance/programmes/${programmeId}/exposure?group_by=zone&sort=utilisation_desc&page=1&page_size=100`,
      `/insurance/programmes/${programmeId}/treaties`,
      `/insurance/programmes/${programmeId}/results`,
    ],
  },
  {
    name: 'audit',
    label: 'the audit of a policy (241 events, each proven)',
    page: (sample) => `/console/policies/${auditedPolicy(sample)}/audit`,
    shown: auditShown,
    api: (sample) => [
      '/audit/keys',
      ...Array.from(
        { length: Math.ceil(auditedEvents / 100) },
        (_, page) => `/insurance/policies/${auditedPolicy(sample)}/events?proofs=true&page=${page + 1}&page_size=100`,
      ),
    ],
  },
];

/** BENCH_PAGES=programme,policy runs the floor and the pages whose name starts with one of those words
 *  (`policies` is both lists). */
const scenarios = allScenarios.filter(
  (scenario, index) =>
    index === 0 ||
    process.env.BENCH_PAGES === undefined ||
    process.env.BENCH_PAGES.split(',').some((word) => scenario.name.startsWith(word.trim())),
);

/** Where a sample's time went, on the page's clock: its scripts and styles in, its first API call sent,
 *  its last API answer in (the rest, to `shown`, is the browser's own work on the data). */
interface Phases {
  readonly assets: number;
  readonly firstCall: number | null;
  readonly lastAnswer: number | null;
}
// Run in the page.
const phasesOf = (): Phases => {
  const entries = performance.getEntriesByType('resource') as unknown as readonly {
    name: string;
    initiatorType: string;
    startTime: number;
    responseEnd: number;
  }[];
  const assets = entries.filter((entry) => entry.name.includes('/console/assets/'));
  const calls = entries.filter((entry) => entry.initiatorType === 'fetch');
  return {
    assets: Math.max(0, ...assets.map((entry) => entry.responseEnd)),
    firstCall: calls.length === 0 ? null : Math.min(...calls.map((entry) => entry.startTime)),
    lastAnswer: calls.length === 0 ? null : Math.max(...calls.map((entry) => entry.responseEnd)),
  };
};

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
}

/** BENCH_PROFILE=1: the page's JavaScript self time by function over one sample (the V8 sampling profiler
 *  through CDP), the dozen costliest, to stderr. */
const PROFILE = process.env.BENCH_PROFILE === '1';
const SAMPLING_US = 200;

const printProfile = (label: string, nodes: readonly ProfileNode[]): void => {
  const selfMs = new Map<string, number>();
  for (const { callFrame, hitCount = 0 } of nodes) {
    const where = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').at(-1) ?? ''}:${callFrame.lineNumber + 1}`;
    selfMs.set(where, (selfMs.get(where) ?? 0) + (hitCount * SAMPLING_US) / 1_000);
  }
  const top = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.error(`Profile of one sample of ${label} (self ms):`);
  for (const [where, ms] of top) console.error(`  ${ms.toFixed(1).padStart(7)}  ${where}`);
};

// Run in the page: each request's start, first byte and end, and its size on the wire.
const requestsOf = (): string[] =>
  (
    performance.getEntriesByType('resource') as unknown as readonly {
      name: string;
      startTime: number;
      responseStart: number;
      responseEnd: number;
      transferSize: number;
    }[]
  ).map(
    (entry) =>
      `${entry.startTime.toFixed(0)} → ${entry.responseStart.toFixed(0)} → ${entry.responseEnd.toFixed(0)} ms, ${entry.transferSize} B: ${new URL(entry.name).pathname}`,
  );

const renderTime = async (
  browser: Browser,
  baseUrl: string,
  token: string | null,
  path: string,
  shown: Scenario['shown'],
  profileAs?: string,
) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    if (token !== null)
      await context.addInitScript(`sessionStorage.setItem('cropcover.console.token', ${JSON.stringify(token)})`);
    const page = await context.newPage();
    const cdp = profileAs === undefined ? undefined : await context.newCDPSession(page);
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
      await cdp.send('Profiler.start');
    }
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(shown, undefined, {
      polling: 'raf',
      timeout: 30_000,
    });
    const timed = { shown: Number(await handle.jsonValue()), ...(await page.evaluate(phasesOf)) };
    if (cdp) {
      printProfile(profileAs!, (await cdp.send('Profiler.stop')).profile.nodes as ProfileNode[]);
      for (const request of await page.evaluate(requestsOf)) console.error(`  ${request}`);
    }
    return timed;
  } finally {
    await context.close();
  }
};

const database = await createTestDatabase('bench_console');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
const browser = await launchChromium();
try {
  const seeding = performance.now();
  await insertPolicyRows(database.url, {
    policies: POLICIES,
    organization: ORGANIZATION,
    farms: 2_000,
    termStart: TERM_START,
    termEnd: TERM_END,
  });
  await seedReadingsAndEvaluations(database.url);
  const token = await tokenFor({ sub: 'bench-insurer', org: ORGANIZATION, roles: ['insurer'] });
  programmeId = await seedProgramme(database.url, service.baseUrl, token);
  if (scenarios.some((scenario) => scenario.name === 'audit'))
    auditedEvents = await seedAuditedPolicies(database.url, service.baseUrl, token);
  console.log(`Seeded ${POLICIES} policies in ${((performance.now() - seeding) / 1000).toFixed(1)} s.`);
  const headers = { authorization: `Bearer ${token}` };
  const tokenOf = (scenario: Scenario) => (scenario.signedIn === false ? null : token);
  const apiTime = async (paths: readonly string[]): Promise<number> => {
    const started = performance.now();
    for (const path of paths) {
      const response = await fetch(`${service.baseUrl}${path}`, { headers });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      await response.arrayBuffer();
    }
    return performance.now() - started;
  };
  // Warm up: the JIT settles, the indexes are in the buffer cache, Chromium has started its processes.
  for (const scenario of scenarios)
    for (let sample = 0; sample < 3; sample += 1) {
      await renderTime(browser, service.baseUrl, tokenOf(scenario), scenario.page(sample + SAMPLES), scenario.shown);
      await apiTime(scenario.api(sample + SAMPLES));
    }

  const rows: string[] = [];
  const loads: number[] = [];
  for (const scenario of scenarios) {
    const renders: number[] = [];
    const apis: number[] = [];
    const [assets, firstCalls, lastAnswers]: number[][] = [[], [], []];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      const timed = await renderTime(
        browser,
        service.baseUrl,
        tokenOf(scenario),
        scenario.page(sample),
        scenario.shown,
      );
      renders.push(timed.shown);
      assets!.push(timed.assets);
      if (timed.firstCall !== null) firstCalls!.push(timed.firstCall);
      if (timed.lastAnswer !== null) lastAnswers!.push(timed.lastAnswer);
      apis.push(await apiTime(scenario.api(sample)));
      loads.push(loadavg()[0]!);
    }
    for (const series of [renders, apis, assets!, firstCalls!, lastAnswers!]) series.sort((a, b) => a - b);
    const median = (series: number[]) => (series.length === 0 ? '—' : percentile(series, 50).toFixed(0));
    const [p50, p95, max, api50] = [
      percentile(renders, 50),
      percentile(renders, 95),
      renders.at(-1)!,
      percentile(apis, 50),
    ];
    const calls = scenario.api(0).length > 0;
    rows.push(
      `| ${scenario.label} | ${p50.toFixed(0)} | ${p95.toFixed(0)} | ${max.toFixed(0)} | ${calls ? api50.toFixed(0) : '—'} | ${calls ? (p50 / api50).toFixed(1) : '—'} | ${median(assets!)} / ${median(firstCalls!)} / ${median(lastAnswers!)} | ${p95 < 1_000 ? 'yes' : '**no**'} |`,
    );
    console.error(`${scenario.name}: p95 ${p95.toFixed(0)} ms`);
    if (PROFILE)
      await renderTime(browser, service.baseUrl, tokenOf(scenario), scenario.page(0), scenario.shown, scenario.label);
  }
  // The table to paste into docs/benchmarks.md, with what it was run on.
  loads.sort((a, b) => a - b);
  console.log(
    `${new Date().toISOString().slice(0, 16)} UTC, ${availableParallelism()} cores, 1-min load average ${loads[0]!.toFixed(1)}–${loads.at(-1)!.toFixed(1)} during the samples; ${POLICIES.toLocaleString('en')} policies, ${SAMPLES} samples per page, each a fresh browser context.`,
  );
  console.log('');
  console.log(
    '| page | render p50 ms | render p95 ms | render max ms | API alone p50 ms | render ÷ API | p50 ms: assets in / first call / last answer | p95 < 1 s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  await browser.close();
  await service.stop();
  await database.drop();
}
