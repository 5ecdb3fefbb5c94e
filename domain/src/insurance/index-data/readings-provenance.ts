import { createHash } from 'node:crypto';
import type { PerilDataSource, ReadingsFile, ReadingsProvenance } from '@cropcover/contracts';
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

/** `sha256:` + hex over `date,value,revision,label,file_sha256\n` per reading in date order (INDEX-DATA
 *  §4): `readingsDigest`'s line with where the value came from, label and SHA-256 each empty for a value
 *  posted through the readings API, and `;`-joined, in the same order, for a sampled value whose cells
 *  came from several files. Labels are letters, digits, `_`, `.` and `-`, so the line reads back. */
export const originDigest = (readings: readonly IndexObservation[]): string => {
  const hash = createHash('sha256');
  for (const { date, value, revision, files = [] } of readings) {
    const labels = files.map((file) => file.label ?? '').join(';');
    const sha256s = files.map((file) => file.sha256).join(';');
    hash.update(`${date},${String(value)},${revision},${labels},${sha256s}\n`);
  }
  return `sha256:${hash.digest('hex')}`;
};

/** The distinct files behind the readings (by SHA-256 and label), each with how many of them it gave, in
 *  the order of the first reading each gave (readings in date order: the earliest file first). */
export const readingsFilesOf = (readings: readonly IndexObservation[]): ReadingsFile[] => {
  const files = new Map<string, ReadingsFile>();
  for (const reading of readings) {
    for (const { sha256, label } of reading.files ?? []) {
      const key = `${sha256},${label ?? ''}`;
      const known = files.get(key);
      if (known === undefined) files.set(key, { sha256, label, values: 1 });
      else known.values += 1;
    }
  }
  return [...files.values()];
};

/** What an evaluation read of a list of readings, whichever source the list came from. */
export type ReadingsUsed = Omit<ReadingsProvenance, keyof PerilDataSource>;

/** The readings of [from, to] an evaluation read, counted and digested, and the files they came from;
 *  `aggregate` names what read them (`<product>@<version>#<peril>`). The one maker of provenance: live
 *  evaluation, backtests, the audit's replay and the policy view all read it from here. */
export const readingsUsedOf = (
  aggregate: string,
  readings: readonly IndexObservation[],
  from: string,
  to: string,
): ReadingsUsed => {
  const used = readingsIn(readings, from, to);
  return {
    aggregate,
    readings_from: from,
    readings_to: to,
    readings_used: used.length,
    digest: readingsDigest(used),
    files: readingsFilesOf(used),
    origin_digest: originDigest(used),
  };
};
