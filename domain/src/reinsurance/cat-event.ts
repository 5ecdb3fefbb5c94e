import type { Peril } from '@cropcover/contracts';
import type { Zone } from '../programmes/accumulation-zone';

// What one catastrophe event is, for a cat XL (SPEC §7): every loss of a zone in one season for covers that
// settle when their window closes, and for flood and storm every loss of a zone within 72 hours of the
// event's first (an hours clause; the 72 h are assumed, not sourced — research note §3).

export const HOURS_CLAUSE_MS = 72 * 60 * 60 * 1000;

/** Perils whose events are counted by the hours clause; every other peril's by zone and season. */
const SUDDEN_PERILS: ReadonlySet<Peril> = new Set(['flood', 'storm']);

export type CatClock = 'season' | 'hours';

export const catClockOf = (peril: Peril): CatClock => (SUDDEN_PERILS.has(peril) ? 'hours' : 'season');

/** An event of a zone by season: one key per (zone, season), so every loss of it lands there. */
export const seasonEventKey = (zone: Zone, season: string): string =>
  JSON.stringify([zone.source_id, zone.location, 'season', season]);

/** An event of a zone by the hours clause, named by its first loss's moment. */
export const hoursEventKey = (zone: Zone, startsAt: string): string =>
  JSON.stringify([zone.source_id, zone.location, 'hours', startsAt]);

/** The zone and clock an event key names. */
export const eventOfKey = (key: string): { zone: Zone; clock: CatClock } => {
  const [source_id, location, clock] = JSON.parse(key) as [string, string, CatClock, string];
  return { zone: { source_id, location }, clock };
};

/** Whether a loss at `at` falls in the hours event started at `startsAt`. */
export const withinHoursClause = (startsAt: string, at: string): boolean => {
  const elapsed = Date.parse(at) - Date.parse(startsAt);
  return elapsed >= 0 && elapsed < HOURS_CLAUSE_MS;
};
