import { createHash } from 'node:crypto';
import type { PerilDataSource, ReadingsProvenance } from '@cropcover/contracts';
import type { IndexObservation } from './index-observation';

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

/** What provenance says of the data a cover read: the source as frozen, and of a climatology only which
 *  version it was (its numbers are the policy's, in `PolicyIssued`). */
export const sourceProvenance = ({
  climatology,
  ...source
}: PerilDataSource): Omit<ReadingsProvenance, keyof ReadingsUsed> => ({
  ...source,
  ...(climatology === undefined
    ? {}
    : { climatology: { name: climatology.name, version: climatology.version, digest: climatology.digest } }),
});

/** What an evaluation read of a list of readings, whichever source the list came from. */
export type ReadingsUsed = Omit<ReadingsProvenance, keyof PerilDataSource>;

/** The readings of [from, to] an evaluation read, counted and digested; `aggregate` names what read them
 *  (`<product>@<version>#<peril>`). */
export const readingsUsedOf = (
  aggregate: string,
  readings: readonly IndexObservation[],
  from: string,
  to: string,
): ReadingsUsed => {
  const used = readingsIn(readings, from, to);
  return { aggregate, readings_from: from, readings_to: to, readings_used: used.length, digest: readingsDigest(used) };
};
