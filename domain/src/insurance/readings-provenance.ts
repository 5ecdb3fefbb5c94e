import { createHash } from 'node:crypto';
import type { PerilDataSource, ReadingsProvenance, TriggerAggregation } from '@cropcover/contracts';
import { addDays, laterDate } from './calendar-date';
import type { IndexObservation } from './trigger-evaluation';

/** The dates whose readings an aggregate over [windowStart, windowEnd] reads: a mean of the last N days
 *  reads only those, every other aggregate the whole window. */
export const readingsUsedRange = (
  aggregation: TriggerAggregation,
  windowStart: string,
  windowEnd: string,
): { readonly from: string; readonly to: string } => ({
  from:
    aggregation.kind === 'mean_of_last_days'
      ? laterDate(windowStart, addDays(windowEnd, 1 - aggregation.days))
      : windowStart,
  to: windowEnd,
});

/** The readings of [from, to], one per date (a later duplicate wins, as the upsert does), in date order. */
export const readingsIn = (
  readings: readonly IndexObservation[],
  from: string,
  to: string,
): readonly IndexObservation[] => {
  const byDate = new Map<string, IndexObservation>();
  for (const reading of readings) if (reading.date >= from && reading.date <= to) byDate.set(reading.date, reading);
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
};

/** `sha256:` + hex over `date,value,revision\n` per reading in date order. A value is written in its
 *  shortest round-trip form, so the digest is a function of the numbers, not of how a store prints them. */
export const readingsDigest = (readings: readonly IndexObservation[]): string => {
  const hash = createHash('sha256');
  for (const { date, value, revision } of readings) hash.update(`${date},${String(value)},${revision}\n`);
  return `sha256:${hash.digest('hex')}`;
};

/** What an evaluation's aggregate read of a list of readings, whichever source the list came from. */
export type ReadingsUsed = Omit<ReadingsProvenance, keyof PerilDataSource>;

export const readingsUsedOf = (
  aggregation: TriggerAggregation,
  readings: readonly IndexObservation[],
  windowStart: string,
  windowEnd: string,
): ReadingsUsed => {
  const { from, to } = readingsUsedRange(aggregation, windowStart, windowEnd);
  const used = readingsIn(readings, from, to);
  return {
    aggregate: aggregation.kind,
    readings_from: from,
    readings_to: to,
    readings_used: used.length,
    digest: readingsDigest(used),
  };
};

/** What an evaluation of one peril read, to be recorded with it. */
export const provenanceOf = (
  data: PerilDataSource,
  aggregation: TriggerAggregation,
  readings: readonly IndexObservation[],
  windowStart: string,
  windowEnd: string,
): ReadingsProvenance => ({ ...data, ...readingsUsedOf(aggregation, readings, windowStart, windowEnd) });
