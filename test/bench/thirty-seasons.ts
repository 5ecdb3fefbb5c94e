// Thirty seasons of daily readings for the insurance benchmarks: bimodal rains, NDVI following them,
// light wind, with droughts, floods, vegetation stress and storms in a few past seasons so every peril
// is priced by burning cost on non-zero severities. Deterministic, so every run prices the same history.

export const YEARS = 30;
export const READINGS_PER_REQUEST = 10_000;
export const PERILS = ['drought', 'flood', 'vegetation_stress', 'storm'] as const;
export const DAY_MS = 86_400_000;

export const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const todayMs = Date.parse(`${dateOf(Date.now())}T00:00:00Z`);
// The longest term allowed, starting as far back as allowed, so the live evaluation has readings.
export const termStartMs = todayMs - 7 * DAY_MS;
export const term = { term_start: dateOf(termStartMs), term_end: dateOf(termStartMs + 364 * DAY_MS) };

/** Past seasons (1 = last year's term) in which each peril's index goes over its trigger. */
const DROUGHT_SEASONS = new Set([4, 13, 22]);
const FLOOD_SEASONS = new Set([7, 19, 27]);
const VEGETATION_STRESS_SEASONS = new Set([4, 10, 13, 22]);
const STORM_SEASONS = new Set([9, 16, 25]);

/** Deterministic, so every run prices the same history. */
const random = (() => {
  let state = 0x2f6e2b1;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
})();
const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

export interface Reading {
  readonly date: string;
  readonly index: 'rainfall_mm' | 'ndvi' | 'wind_speed_ms';
  readonly value: number;
}

/** Bimodal rains (~3.6 mm/day on average, no day above 28 mm), NDVI following the rains, light wind. */
export const dailyReadings = (ms: number): Reading[] => {
  const date = dateOf(ms);
  const season = ms >= termStartMs ? 0 : Math.ceil((termStartMs - ms) / DAY_MS / 365.2425);
  const dayOfSeason = Math.round((((ms - termStartMs) / DAY_MS) % 365.2425) + 365.2425) % 365;
  const wetness = 0.5 + 0.5 * Math.sin((4 * Math.PI * dayOfSeason) / 365);
  let rainfall = random() < 0.2 + 0.4 * wetness ? Math.min(28, -Math.log(1 - random()) * 9) : 0;
  if (DROUGHT_SEASONS.has(season)) rainfall *= 0.45;
  if (FLOOD_SEASONS.has(season) && dayOfSeason >= 120 && dayOfSeason < 125) rainfall = 45;
  let ndvi = 0.55 + 0.15 * wetness + (random() - 0.5) * 0.06;
  if (VEGETATION_STRESS_SEASONS.has(season) && dayOfSeason >= 150 && dayOfSeason < 210) ndvi -= 0.3;
  let wind = 3 + 4 * random() + (random() < 0.03 ? 8 * random() : 0);
  if (STORM_SEASONS.has(season) && dayOfSeason === 200) wind = 32;
  return [
    { date, index: 'rainfall_mm', value: round(rainfall, 1) },
    { date, index: 'ndvi', value: round(ndvi, 3) },
    { date, index: 'wind_speed_ms', value: round(wind, 1) },
  ];
};

/** Every day's readings of the 30 years up to today, oldest first. */
export const thirtySeasons = (): Reading[] => {
  const readings: Reading[] = [];
  for (let ms = todayMs - Math.round(YEARS * 365.2425) * DAY_MS; ms <= todayMs; ms += DAY_MS) {
    readings.push(...dailyReadings(ms));
  }
  return readings;
};
