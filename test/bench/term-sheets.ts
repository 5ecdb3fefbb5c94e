import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { KHARIF_DEFICIT_SHEET } from '@cropcover/domain/testing';
import { createPostgresEventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, endPool, settableClock } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import { type MonitorPass, timedMonitorPass } from '../../workers/bench/monitor-pass';
import { startService } from '../src/support/service-process';
import { benchCallers, type Headers, postTo } from './sourced-cover';
import { DAY_MS, dateOf, todayMs } from './thirty-seasons';

// Issue 24's goals at the service, in one run: the default product beside a 3-phase dekadal sheet
// (TERM-SHEETS.md example B, registered over HTTP), their drought covers on the same term, reading the
// same cells of one rainfall grid.
//   (a) live evaluation, `POST /insurance/policies/{id}/evaluate` one request at a time, p50/p99;
//   (b) a monitor pass of BENCH_POLICIES policies per product, policies/s: the monitor's own pass
//       (`timedMonitorPass`, workers/bench/monitor-pass.ts) against the service's database, reading the
//       series and appending as in production: the first pass of each product (every policy loaded from its
//       stream and its first evaluation appended), then BENCH_ROUNDS daily passes per product on successive
//       days (from snapshots; an evaluation concluding what the last did is not appended), alternating
//       which goes first, the best taken (other work on the machine lowers either);
//   (c) a 30-season quote, `POST /insurance/quote` one request at a time, p50/p99, each priced from
//       scratch: a reading posted before each (outside the 30 seasons) changes the cell's readings version,
//       so neither the kept quotes nor the kept rates answer it.
// The policies: one of each product is quoted and issued over HTTP on the sheet's next season; the monitor
// needs thousands on a season with readings, so that issued event is copied (as the monitor's portfolio
// bench seeds) onto the latest past season, each copy reading one of BENCH_CELLS cells, with a settlement
// period reaching past today so the live evaluation (today, clipped to the term end) reads the whole
// season. Readings are posted over HTTP. The service's own monitor is off; its projector runs.
// Run: npx tsx test/bench/term-sheets.ts   (BENCH_POLICIES 10000, BENCH_CELLS 1000, BENCH_ROUNDS 5,
// BENCH_REQUESTS 300 per product for (a) and (c); BENCH_CPU_PROFILE=<dir> writes each timed pass's profile)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const POLICIES = Number(process.env.BENCH_POLICIES ?? 10_000);
const CELLS = Number(process.env.BENCH_CELLS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
const READINGS_PER_REQUEST = 10_000;
const LIVE_POLICIES = 100;

const today = dateOf(todayMs);
const { farmer, insurer, provider } = await benchCallers();

/** Deterministic, so every run has the same weather. */
let state = 0x2f6e2b1;
const random = (): number => {
  state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
  return state / 2 ** 31;
};
/** A day's rain: ~45 % wet days, up to 28 mm, every seventh year dry. */
const rainOn = (date: string): number => {
  const dry = Number(date.slice(0, 4)) % 7 === 3 ? 0.4 : 1;
  const wet = random() < 0.45 ? Math.min(28, -Math.log(1 - random()) * 9) : 0;
  return Math.round(wet * dry * 10) / 10;
};
const daysOf = (from: string, to: string): string[] => {
  const days: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS)
    days.push(dateOf(ms));
  return days;
};
const addDays = (date: string, days: number): string => dateOf(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);

// The monitored season: example B's, in the latest year it has ended.
const { from: seasonFrom, to: seasonTo } = KHARIF_DEFICIT_SHEET.season!;
const year = Number(today.slice(0, 4)) - (`${today.slice(0, 4)}-${seasonTo}` < today ? 0 : 1);
const season = { start: `${year}-${seasonFrom}`, end: `${year}-${seasonTo}` };
const settlementDays = (Date.parse(today) - Date.parse(season.end)) / DAY_MS + 30;

/** The 0.05° cell `n` of the monitored grid: its centre (where readings are posted) and its id (its
 *  south-west corner, what a policy's data source names). */
const cellOf = (n: number) => {
  const lat = -4 + 0.05 * Math.floor(n / 40);
  const lon = 34 + 0.05 * (n % 40);
  const text = (value: number) => String(Number(value.toFixed(3)));
  return { centre: `${text(lat + 0.025)},${text(lon + 0.025)}`, id: `${text(lat)},${text(lon)}` };
};

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (value: number) => value.toFixed(1);

const products = [
  { label: 'default', prefix: 'pol-default-', product: undefined },
  { label: 'example B, 3 dekadal phases', prefix: 'pol-sheet-', product: { product_id: 'kharif-b' } },
] as const;
type Product = (typeof products)[number];

const database = await createTestDatabase('bench_term_sheets');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
const logger = createLogger({ level: 'warn' });
const pool = createPool(database.url, logger, { max: 10 });
const db = createKysely<ReadModels>(pool);
const eventStore = createPostgresEventStore({ pool });
const post = (path: string, headers: Headers, body: unknown) => postTo(service, path, headers, body);
const query = async <Row>(text: string, values: unknown[] = []): Promise<Row[]> =>
  (await pool.query(text, values)).rows as Row[];

/** Until the policies projection has read everything in the log. */
const projected = async (): Promise<void> => {
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    const [row] = await query<{ behind: boolean }>(
      `select coalesce((select max(global_position) from events), 0) >
         coalesce((select prepare_position from projection_checkpoints where name = 'policies'), 0) as behind`,
    );
    if (!row!.behind) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the policies projection did not catch up within 10 minutes');
};

const postReadings = async (readings: readonly object[]): Promise<void> => {
  for (let at = 0; at < readings.length; at += READINGS_PER_REQUEST)
    await post('/insurance/index-readings', provider, { readings: readings.slice(at, at + READINGS_PER_REQUEST) });
};

try {
  const seeding = performance.now();
  const { farm_id } = await post('/farms/create', farmer, { name: 'Benchmark shamba', country: 'KE' });
  await post(`/farms/${farm_id}/access`, farmer, { organization_id: 'org-bench', purposes: ['insurance'] });
  const { field_id } = await post(`/farms/${farm_id}/fields`, farmer, {
    field_id: 'north',
    name: 'Plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
    crop_type: 'maize',
  });
  await post('/insurance/products', insurer, { product_id: 'kharif-b', sheet: KHARIF_DEFICIT_SHEET });
  const grid = await post('/insurance/index-sources', provider, {
    kind: 'grid',
    name: 'Rainfall grid',
    index: 'rainfall_mm',
    resolution_deg: 0.05,
  });
  // The quoted field's cell: 30 years of daily rain up to today. The monitored cells: the season.
  await postReadings(
    daysOf(addDays(today, -Math.round(30 * 365.2425)), today).map((date) => ({
      source_id: grid.source_id,
      location: '-1.275,36.825',
      date,
      value: rainOn(date),
    })),
  );
  const seasonDays = daysOf(season.start, season.end);
  await postReadings(
    Array.from({ length: CELLS }, (_, n) =>
      seasonDays.map((date) => ({ source_id: grid.source_id, location: cellOf(n).centre, date, value: rainOn(date) })),
    ).flat(),
  );
  const stored = await query<{ location: string }>('select distinct location from index_readings');
  const missing = Array.from({ length: CELLS }, (_, n) => cellOf(n).id).filter(
    (id) => !stored.some((row) => row.location === id),
  );
  if (missing.length > 0) throw new Error(`cells stored under other ids than ${missing.slice(0, 3).join(' ')}`);

  // One policy of each product quoted and issued over HTTP on the sheet's next season, then copied.
  const cover = {
    farm_id,
    field_id,
    perils: ['drought'],
    sum_insured: 30_000,
    currency: 'INR',
    data_sources: { drought: grid.source_id },
  };
  const quoteOf = (product: Product) => ({ ...cover, ...(product.product ? { product: product.product } : {}) });
  const sheetQuote = await post('/insurance/quote', insurer, quoteOf(products[1]));
  const term = { term_start: sheetQuote.term_start as string, term_end: sheetQuote.term_end as string };
  for (const product of products) {
    const quoted = await post('/insurance/quote', insurer, { ...quoteOf(product), ...term });
    const pricing = quoted.breakdown.drought as { method: string; seasons_used: number };
    if (pricing.method !== 'burning_cost' || pricing.seasons_used < 25)
      throw new Error(`${product.label} is not priced by burning cost over 30 seasons: ${JSON.stringify(pricing)}`);
    const { policy_id } = await post('/insurance/policies', insurer, { ...quoteOf(product), ...term });
    const [issued] = await eventStore.readStream(`policy-${policy_id}`);
    const template = issued!.data as Record<string, any>;
    let next = 0;
    const writer = async (): Promise<void> => {
      for (let at = next++; at < POLICIES; at = next++) {
        const policyId = `${product.prefix}${String(at).padStart(6, '0')}`;
        const data = {
          ...template,
          policy_id: policyId,
          term_start: season.start,
          term_end: season.end,
          settlement_period_days: settlementDays,
          issued_at: `${addDays(season.start, -7)}T08:00:00.000Z`,
          data_sources: { drought: { ...template.data_sources.drought, location: cellOf(at % CELLS).id } },
        };
        const metadata = { ...issued!.metadata, event_id: randomUUID() };
        await eventStore.append(`policy-${policyId}`, [{ type: issued!.type, data, metadata }], 'no_stream');
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
  }
  await projected();
  console.log(
    `Seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s: ${POLICIES} policies per product on ${season.start} to ${season.end}, ${CELLS} cells.`,
  );

  // (b) The monitor passes, first: they run on days of the season, before the live evaluations of today.
  // A pass takes every due policy, so before each the other product's policies are marked done that day.
  const clock = settableClock(`${season.end}T00:05:00.000Z`);
  const passes = new Map<Product, MonitorPass[]>(products.map((product) => [product, []]));
  const passOn = async (product: Product, day: string): Promise<MonitorPass> => {
    const other = products.find((candidate) => candidate !== product)!;
    await query(
      `insert into policy_monitor_rounds (policy_id, checked_on)
       select policy_id, $1::date from policies where policy_id like $2
       on conflict (policy_id) do update set checked_on = excluded.checked_on`,
      [day, `${other.prefix}%`],
    );
    await query(
      `update policy_monitor_rounds set checked_on = $1::date - 1 where policy_id like $2 and checked_on >= $1::date`,
      [day, `${product.prefix}%`],
    );
    clock.set(`${day}T00:05:00.000Z`);
    const pass = await timedMonitorPass({
      deps: { eventStore, db },
      clock,
      logger,
      cpuProfile: CPU_PROFILE_DIR ? `${CPU_PROFILE_DIR}/${product.prefix}${day}.cpuprofile` : undefined,
    });
    if (pass.handled !== POLICIES || pass.tick.failed > 0)
      throw new Error(`${product.label} on ${day}: ${JSON.stringify(pass.tick)}, not ${POLICIES} evaluated`);
    // The projector's work on the pass's events is not the next pass's.
    await projected();
    return pass;
  };
  const loadBefore = loadavg().map((load) => load.toFixed(2));
  // The first pass of each loads every policy from its stream, records its first evaluation and writes its
  // snapshot: one of each, the default first. The daily passes after it load from the snapshot and record
  // only an evaluation that concludes otherwise than the last (few, late in a season).
  const firstDay = addDays(season.end, -ROUNDS - 1);
  const firstPasses = new Map<Product, MonitorPass>();
  for (const product of products) firstPasses.set(product, await passOn(product, firstDay));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? products : [...products].reverse();
    for (const product of order) passes.get(product)!.push(await passOn(product, addDays(firstDay, round + 1)));
  }

  // (a) and (c), the products' requests interleaved one at a time.
  const timedPost = async (path: string, headers: Headers, body: unknown): Promise<number> => {
    const started = performance.now();
    await post(path, headers, body);
    return performance.now() - started;
  };
  let oldDay = Date.parse('1980-01-01T00:00:00Z');
  const quoteFromScratch = async (product: Product): Promise<number> => {
    oldDay += DAY_MS;
    await post('/insurance/index-readings', provider, {
      readings: [{ source_id: grid.source_id, location: '-1.275,36.825', date: dateOf(oldDay), value: 1 }],
    });
    return timedPost('/insurance/quote', insurer, { ...quoteOf(product), ...term });
  };
  const evaluation = new Map<Product, number>(products.map((product) => [product, 0]));
  const evaluateLive = (product: Product): Promise<number> => {
    const at = evaluation.get(product)!;
    evaluation.set(product, at + 1);
    return timedPost(
      `/insurance/policies/${product.prefix}${String(at % LIVE_POLICIES).padStart(6, '0')}/evaluate`,
      insurer,
      {},
    );
  };
  const latencies = async (request: (product: Product) => Promise<number>) => {
    const times = new Map<Product, number[]>(products.map((product) => [product, []]));
    for (let warm = 0; warm < 20; warm += 1) for (const product of products) await request(product);
    for (let run = 0; run < REQUESTS; run += 1)
      for (const product of products) times.get(product)!.push(await request(product));
    return new Map([...times].map(([product, list]) => [product, list.sort((a, b) => a - b)]));
  };
  const live = await latencies(evaluateLive);
  const quotes = await latencies(quoteFromScratch);
  const loadAfter = loadavg().map((load) => load.toFixed(2));

  const best = (product: Product) =>
    passes.get(product)!.reduce((top, pass) => (pass.handled / pass.seconds > top.handled / top.seconds ? pass : top));
  const rate = (pass: MonitorPass) => pass.handled / pass.seconds;
  console.log(
    `Load average (1, 5, 15 min) before the passes: ${loadBefore.join(', ')}; after: ${loadAfter.join(', ')}`,
  );
  console.log(
    `Monitor passes, policies/s (this process's CPU ms per policy, evaluations appended): ${products
      .map(
        (product) =>
          `${product.label}: ${passes
            .get(product)!
            .map(
              (pass) =>
                `${Math.round(rate(pass))} (${(pass.cpuMs / pass.handled).toFixed(2)}, ${pass.tick.evaluated - pass.tick.unchanged} recorded)`,
            )
            .join(', ')}`,
      )
      .join('; ')}`,
  );
  const [anchor, sheet] = products;
  const row = (figure: string, of: (product: Product) => number, show: (value: number) => string, goal: string) =>
    `| ${figure} | ${show(of(anchor))} | ${show(of(sheet))} | ${(of(sheet) / of(anchor)).toFixed(2)}× | ${goal} |`;
  console.log(`| figure | ${anchor.label} | ${sheet.label} | sheet ÷ default | goal |`);
  console.log('|---|---|---|---|---|');
  console.log(row('live evaluation p50, ms', (p) => percentile(live.get(p)!, 50), ms, ''));
  console.log(row('live evaluation p99, ms', (p) => percentile(live.get(p)!, 99), ms, '≤ 1.5×'));
  console.log(
    row(
      `monitor pass of ${POLICIES}, policies/s (best of ${ROUNDS})`,
      (p) => rate(best(p)),
      (v) => String(Math.round(v)),
      '≥ 0.8×',
    ),
  );
  console.log(
    row(
      'monitor pass, CPU ms per policy (of that pass)',
      (p) => best(p).cpuMs / best(p).handled,
      (v) => v.toFixed(2),
      '',
    ),
  );
  const first = (product: Product) => firstPasses.get(product)!;
  console.log(
    row(
      `first monitor pass of ${POLICIES} (each appends), policies/s (one)`,
      (p) => rate(first(p)),
      (v) => String(Math.round(v)),
      '',
    ),
  );
  console.log(
    row(
      'first monitor pass, CPU ms per policy',
      (p) => first(p).cpuMs / first(p).handled,
      (v) => v.toFixed(2),
      '',
    ),
  );
  console.log(row('30-season quote p50, ms', (p) => percentile(quotes.get(p)!, 50), ms, ''));
  console.log(row('30-season quote p99, ms', (p) => percentile(quotes.get(p)!, 99), ms, '≤ 2×'));
} finally {
  await eventStore.close();
  await endPool(pool);
  await service.stop();
  await database.drop();
}
