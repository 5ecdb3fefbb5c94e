import { dayValuesIn } from '../src/insurance/index-data/day-values';
import type { IndexObservation } from '../src/insurance/index-data/index-observation';
import { rateCover } from '../src/insurance/pricing/pricing';
import { DEFAULT_PRODUCT } from '../src/insurance/term-sheet/builtin';
import { evaluateCover } from '../src/insurance/term-sheet/evaluate-cover';
import type { ProductTerms } from '../src/insurance/term-sheet/product';
import { sheetDigest } from '../src/insurance/term-sheet/sheet-digest';
import { KHARIF_DEFICIT_SHEET } from '../src/testing/example-sheets';

// The engine's cost of a multi-phase sheet beside the default product's, in one run (issue 24): the
// 3-phase dekadal deficit sheet (TERM-SHEETS.md example B) and the default drought cover on the same
// 122-day term and the same rain. Three figures, each the sheet's beside the default's:
//   - live evaluation: one cover's evaluation as of its term end (what an evaluate request and a monitor
//     check run), per call, p50 and p99;
//   - a monitor pass: 10,000 policies on 100 fields' series, one evaluation each, policies per CPU second,
//     the best of 10 passes alternating between the two;
//   - a 30-season quote: the burning-cost rating over 30 past seasons of daily rain, per quote, p99.
// The pure engine only: reading the series and appending the events are the same for both sheets.
// Run: npx tsx domain/bench/term-sheets.ts

const DAY_MS = 86_400_000;
const YEARS = 30;
const today = '2026-05-25';
const term = { start: '2026-06-01', end: '2026-09-30' };
const LIVE_RUNS = 20_000;
const POLICIES = 10_000;
const FIELDS = 100;
const QUOTE_RUNS = 200;
const MONITOR_ROUNDS = 10;

/** Deterministic, so every run evaluates the same rain. */
let state = 0x2f6e2b1;
const random = (): number => {
  state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
  return state / 2 ** 31;
};
const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;
const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Daily rain from `from` to `to`: ~45 % wet days, some seasons dry. */
const rain = (from: string, to: string): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS) {
    const dry = Number(dateOf(ms).slice(0, 4)) % 7 === 3 ? 0.4 : 1;
    const wet = random() < 0.45 ? Math.min(28, -Math.log(1 - random()) * 9) : 0;
    readings.push({ date: dateOf(ms), value: round(wet * dry, 1), revision: 1 });
  }
  return readings;
};

const SHEET: ProductTerms = {
  ref: { product_id: 'kharif-deficit', version: 1, digest: sheetDigest(KHARIF_DEFICIT_SHEET) },
  sheet: KHARIF_DEFICIT_SHEET,
};
const contenders = [
  { name: 'default drought (1 phase)', product: DEFAULT_PRODUCT },
  { name: 'example B (3 dekadal phases)', product: SHEET },
];
const droughtOf = (product: ProductTerms) => product.sheet.covers.find((cover) => cover.peril === 'drought')!;

const fields = Array.from({ length: FIELDS }, () => dayValuesIn(rain(term.start, term.end), term.start, term.end));
const history = rain(dateOf(Date.parse(`${today}T00:00:00Z`) - Math.round(YEARS * 365.2425) * DAY_MS), today);

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
/** Each call's time, in ms, sorted. */
const timings = (runs: number, call: (run: number) => unknown): number[] => {
  for (let run = 0; run < Math.min(runs, 500); run += 1) call(run);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    call(run);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
};

/** The monitor pass, best of MONITOR_ROUNDS passes alternating between the sheets, in policies per second
 *  of this process's CPU time: other work on the machine weighs on neither. */
const passes: Record<string, number> = {};
for (let round = 0; round < MONITOR_ROUNDS; round += 1) {
  for (const { name, product } of contenders) {
    const cover = droughtOf(product);
    const { amounts } = product.sheet;
    const started = process.cpuUsage();
    for (let policy = 0; policy < POLICIES; policy += 1) {
      evaluateCover({ cover, amounts, term, readings: fields[policy % FIELDS]! }, term.end);
    }
    const used = process.cpuUsage(started);
    passes[name] = Math.max(passes[name] ?? 0, POLICIES / ((used.user + used.system) / 1e6));
  }
}

const results = contenders.map(({ name, product }) => {
  const cover = droughtOf(product);
  const { amounts } = product.sheet;
  const evaluate = (run: number) => evaluateCover({ cover, amounts, term, readings: fields[run % FIELDS]! }, term.end);
  const live = timings(LIVE_RUNS, evaluate);
  const rating = { perils: ['drought' as const], hasIrrigation: false, term, today, history: { drought: history } };
  const quotes = timings(QUOTE_RUNS, () => rateCover(rating, product));
  const rated = rateCover(rating, product).perils[0]!;
  return {
    name,
    liveP50: percentile(live, 50),
    liveP99: percentile(live, 99),
    policiesPerSecond: passes[name]!,
    quoteP99: percentile(quotes, 99),
    seasons: rated.seasonsUsed,
  };
});

for (const result of results) {
  console.log(
    `${result.name.padEnd(30)} live p50 ${(result.liveP50 * 1000).toFixed(1)} µs, p99 ${(result.liveP99 * 1000).toFixed(1)} µs; ` +
      `monitor ${Math.round(result.policiesPerSecond).toLocaleString('en')} policies/s; ` +
      `30-season quote p99 ${result.quoteP99.toFixed(2)} ms (${result.seasons} seasons)`,
  );
}
const [anchor, sheet] = results as [(typeof results)[0], (typeof results)[0]];
console.log(
  `sheet ÷ default: live p99 ${(sheet.liveP99 / anchor.liveP99).toFixed(2)}× (goal ≤ 1.5), ` +
    `monitor ${(sheet.policiesPerSecond / anchor.policiesPerSecond).toFixed(2)}× (goal ≥ 0.8), ` +
    `quote p99 ${(sheet.quoteP99 / anchor.quoteP99).toFixed(2)}× (goal ≤ 2)`,
);
