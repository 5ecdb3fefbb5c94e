import type { Peril } from '@cropcover/contracts';
import { earlierDate } from '../src/insurance/calendar/calendar-date';
import { pastSeasons } from '../src/insurance/calendar/seasons';
import type { IndexObservation } from '../src/insurance/index-data/index-observation';
import type { ReadingHistory } from '../src/insurance/index-data/reading-history';
import { seasonsWithReadings } from '../src/insurance/index-data/season-readings';
import { displayedDecimal as displayedRate } from '../src/insurance/money/rational';
import { priceQuote } from '../src/insurance/pricing/pricing';
import { triggerTermsFor } from '../src/insurance/term-sheet/builtin';
import { seasonSeverityPpm } from '../src/testing/frozen-trigger';
import { referenceSeasonSeverityPpm } from '../src/testing/season-severity.reference';

// The burning-cost price of a one-year, four-peril cover over 30 years of daily rainfall, NDVI and
// wind (~33,000 readings), with droughts, floods, vegetation stress and storms in a few seasons. "before"
// is the per-day reference the pricing used to run (evaluateTrigger for every day of every season; it
// now shares the faster scaling of values, so the pricing as it was took ~4 s), "after" is priceQuote as
// it is. Run: npx tsx domain/bench/pricing.ts

const DAY_MS = 86_400_000;
const YEARS = 30;
const PERILS: Peril[] = ['drought', 'flood', 'vegetation_stress', 'storm'];
const today = '2026-03-25';
const term = { start: today, end: '2027-03-24' };
/** Past seasons (1 = last year's term) in which the indices go over the triggers. */
const DROUGHT_SEASONS = new Set([4, 13, 22]);
const FLOOD_SEASONS = new Set([7, 19, 27]);
const STRESSED_SEASONS = new Set([4, 10, 13, 22]);
const STORM_SEASONS = new Set([9, 16, 25]);

/** Deterministic, so every run prices the same history. */
let state = 0x2f6e2b1;
const random = (): number => {
  state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
  return state / 2 ** 31;
};
const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

const todayMs = Date.parse(`${today}T00:00:00Z`);
const rainfall: IndexObservation[] = [];
const ndvi: IndexObservation[] = [];
const wind: IndexObservation[] = [];
for (let ms = todayMs - YEARS * 365 * DAY_MS; ms < todayMs; ms += DAY_MS) {
  const date = new Date(ms).toISOString().slice(0, 10);
  const daysBack = (todayMs - ms) / DAY_MS;
  const season = Math.ceil(daysBack / 365);
  const dayOfSeason = 365 - (daysBack % 365);
  const rain = random() < 0.45 ? Math.min(28, -Math.log(1 - random()) * 9) : 0;
  const flooded = FLOOD_SEASONS.has(season) && dayOfSeason >= 120 && dayOfSeason < 125;
  rainfall.push({ date, value: round(flooded ? 45 : DROUGHT_SEASONS.has(season) ? rain * 0.4 : rain, 1), revision: 1 });
  const stressed = STRESSED_SEASONS.has(season) && dayOfSeason >= 150 && dayOfSeason < 210;
  ndvi.push({ date, value: round(0.55 + (random() - 0.5) * 0.1 - (stressed ? 0.3 : 0), 3), revision: 1 });
  wind.push({
    date,
    value: round(STORM_SEASONS.has(season) && dayOfSeason === 200 ? 32 : 3 + 6 * random(), 1),
    revision: 1,
  });
}
// Each peril reads its own data; drought and flood share the one rainfall list, as the field's own do.
const history: ReadingHistory = { drought: rainfall, flood: rainfall, vegetation_stress: ndvi, storm: wind };

const msPerRun = (runs: number, price: () => unknown): number => {
  price();
  const started = performance.now();
  for (let run = 0; run < runs; run += 1) price();
  return (performance.now() - started) / runs;
};

/** Every peril's season severities the way the pricing computed them before. */
const referenceSeverities = (): number[][] =>
  PERILS.map((peril) => {
    const terms = triggerTermsFor(peril, term);
    const readings = history[peril] ?? [];
    const earliest = readings.reduce((first, { date }) => earlierDate(date, first), today);
    return pastSeasons(term, today, earliest).flatMap(
      (season) => referenceSeasonSeverityPpm(terms, readings, season) ?? [],
    );
  });

/** The same severities the one-pass way, to show the speed-up changes no number. */
const severities = (): number[][] =>
  PERILS.map((peril) => {
    const terms = triggerTermsFor(peril, term);
    return seasonsWithReadings(term, today, history[peril] ?? []).map((season) => seasonSeverityPpm(terms, season));
  });
if (JSON.stringify(severities()) !== JSON.stringify(referenceSeverities())) {
  throw new Error('the one-pass season severities differ from the reference');
}

const quote = () =>
  priceQuote({ perils: PERILS, sumInsuredMinor: 1_000_000, hasIrrigation: false, term, today, history });

console.log(
  quote()
    .perils.map(({ peril, rate, method, seasonsUsed }) => `${peril} ${displayedRate(rate)} ${method} (${seasonsUsed})`)
    .join(', '),
);
console.log(`before: ${msPerRun(2, referenceSeverities).toFixed(1)} ms per quote (season severities alone)`);
console.log(`after:  ${msPerRun(200, quote).toFixed(2)} ms per quote`);
