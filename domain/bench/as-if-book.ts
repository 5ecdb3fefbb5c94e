import { loadavg } from 'node:os';
import type { Peril } from '@cropcover/contracts';
import { addDays } from '../src/insurance/calendar/calendar-date';
import type { IndexObservation } from '../src/insurance/index-data/index-observation';
import { DEFAULT_SHEET } from '../src/insurance/term-sheet/builtin';
import { productCover } from '../src/insurance/term-sheet/product';
import { AsIfBook, type AsIfPolicy } from '../src/portfolio/as-if-book';
import { evaluateSeasonCover, type SheetCoverTerms } from '../src/portfolio/default-product-covers';
import { portfolioBacktestResult } from '../src/portfolio/portfolio-backtest';

// The as-if backtest's pure core at SPEC §7's scale: 100,000 policies in 1,000 zones over 20 seasons,
// from synthetic daily readings handed over one zone at a time (as a job streams them from the read store),
// with the term-sheet engine's evaluation of the default product's covers as the cover evaluation. Reading the readings from PostgreSQL is not in
// this figure. Usage: npx tsx domain/bench/as-if-book.ts [policies, default 100000] [zones, default 1000]

const POLICIES = Number(process.argv[2] ?? 100_000);
const ZONES = Number(process.argv[3] ?? 1_000);
const SEASONS = 20;
const GOAL_SECONDS = 60;

/** A deterministic stream of numbers in [0, 1) (mulberry32). */
const random = (() => {
  let seed = 20_260_401;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
})();

// A few terms and peril sets, as a book sold on a handful of products has: cover groups repeat per zone.
const TERMS = [
  { start: '2026-03-01', end: '2026-08-31' },
  { start: '2026-04-01', end: '2026-06-29' },
  { start: '2026-10-01', end: '2027-01-31' },
];
const PERIL_SETS: readonly Peril[][] = [['drought'], ['flood'], ['drought', 'flood']];
const SUMS_INSURED = Array.from({ length: 200 }, (_, at) => 50_000 + at * 1_237);

const zoneOf = (zone: number) => ({ source_id: 'chirps', location: `cell-${zone}` });

const policies = function* (): Generator<AsIfPolicy<SheetCoverTerms>> {
  for (let at = 0; at < POLICIES; at += 1) {
    const term = TERMS[Math.floor(random() * TERMS.length)]!;
    const zone = zoneOf(Math.floor(random() * ZONES));
    const perils = PERIL_SETS[Math.floor(random() * PERIL_SETS.length)]!;
    yield {
      policyId: `p-${at}`,
      sumInsuredMinor: SUMS_INSURED[Math.floor(random() * SUMS_INSURED.length)]!,
      term,
      covers: perils.map((peril) => ({
        peril,
        zone,
        index: 'rainfall_mm',
        terms: { cover: productCover(DEFAULT_SHEET, peril), amounts: DEFAULT_SHEET.amounts },
        signature: `default#${peril}`,
      })),
    };
  }
};

/** A zone's daily rainfall over the years the seasons need: dry spells and wet weeks, a few gaps. */
const rainfall = (from: string, to: string): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  const wetness = 0.5 + random() * 4;
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (random() < 0.02) continue;
    readings.push({ date, value: Math.round(random() * random() * random() * wetness * 300) / 10, revision: 1 });
  }
  return readings;
};

const rssPeak = { bytes: 0 };
const sample = () => {
  rssPeak.bytes = Math.max(rssPeak.bytes, process.memoryUsage().rss);
};

// Making the synthetic book and readings is not timed: a job reads them from the store instead.
const made = [...policies()];
const started = performance.now();
const cpuAtStart = process.cpuUsage();
const asIf = new AsIfBook(made, SEASONS, evaluateSeasonCover);
const grouped = performance.now();
let readings = 0;
let evaluating = 0;
for (const { zone, index, from, to } of asIf.zonesToRead()) {
  const zoneReadings = rainfall(from, to);
  readings += zoneReadings.length;
  const before = performance.now();
  asIf.readZone(zone, index, zoneReadings);
  evaluating += performance.now() - before;
  sample();
}
const evaluated = performance.now();
const result = portfolioBacktestResult(asIf.outcome(), { treaties: [], grossPremiumMinor: 0 }, 'USD', {
  programme_revision: null,
  readings,
  digest: 'not taken',
});
const done = performance.now();
const cpu = process.cpuUsage(cpuAtStart);
sample();

const seconds = (grouped - started + evaluating + done - evaluated) / 1000;
console.log(
  [
    `as-if backtest: ${POLICIES.toLocaleString('en')} policies, ${ZONES.toLocaleString('en')} zones, ${SEASONS} seasons, ${readings.toLocaleString('en')} readings`,
    `  grouping ${((grouped - started) / 1000).toFixed(2)} s · evaluating ${(evaluating / 1000).toFixed(2)} s · outcome ${((done - evaluated) / 1000).toFixed(2)} s (wall, synthetic readings left out)`,
    `  total ${seconds.toFixed(2)} s (goal < ${GOAL_SECONDS} s: ${seconds < GOAL_SECONDS ? 'met' : 'NOT met'}) · process CPU, readings made included: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s · peak RSS ${(rssPeak.bytes / 1e6).toFixed(0)} MB · load average ${loadavg()[0]!.toFixed(1)}`,
    `  AAL ${result.gross.average_annual_loss} USD on ${result.total_sum_insured} USD insured; worst season ${result.gross.maximum}; paying seasons ${result.seasons.filter((season) => season.gross > 0).length}`,
  ].join('\n'),
);
