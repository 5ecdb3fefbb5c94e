import { addDays } from '@cropcover/domain';

// A made-up year of weather: light rain, healthy vegetation, moderate wind, and two floods of five days
// each. Deterministic, so every run tells the same story.

export const FLOOD_DAYS = 5;

export interface Flood {
  /** First of the five flood days. */
  readonly start: string;
  readonly rainfallMmPerDay: number;
}

export interface DemoDay {
  readonly date: string;
  readonly rainfall_mm: number;
  readonly ndvi: number;
  readonly wind_speed_ms: number;
}

const inFlood = (date: string, flood: Flood): boolean =>
  date >= flood.start && date <= addDays(flood.start, FLOOD_DAYS - 1);

const round = (value: number, decimals: number): number => Number(value.toFixed(decimals));

/** Rainfall, NDVI and wind for every day from `from` to `to`: at most 9 mm of rain a day outside the
 *  floods, so only the floods come near the flood trigger, and wind below the storm trigger throughout. */
export const demoWeather = (from: string, to: string, floods: readonly Flood[]): DemoDay[] => {
  const days: DemoDay[] = [];
  for (let day = 0, date = from; date <= to; day += 1, date = addDays(from, day)) {
    const flood = floods.find((candidate) => inFlood(date, candidate));
    days.push({
      date,
      rainfall_mm: flood ? flood.rainfallMmPerDay : round(4.5 + 4.5 * Math.sin(day / 9), 1),
      ndvi: round(0.62 + 0.08 * Math.sin((2 * Math.PI * day) / 365), 3),
      wind_speed_ms: round(flood ? 19 : 7 + 5 * Math.abs(Math.sin(day / 5)), 1),
    });
  }
  return days;
};
