import { createHash } from 'node:crypto';
import type { ClimatologyLocation, ClimatologyPeriod, ClimatologyStat, ClimatologyYears } from '@cropcover/contracts';
import { canonicalJson } from '../../insurance/term-sheet/sheet-digest';

export interface ClimatologyContent {
  readonly source_id: string;
  readonly name: string;
  readonly years: ClimatologyYears;
  readonly period: ClimatologyPeriod;
  readonly stat: ClimatologyStat;
  readonly min_years: number;
  /** Every location, in order of location. */
  readonly locations: readonly ClimatologyLocation[];
}

/** `sha256:` of the RFC 8785 canonical JSON of a climatology's definition and numbers: what a policy
 *  freezes beside the numbers, so an auditor holding the climatology knows it is the one read. Its version
 *  and instants are left out: recomputed from unchanged readings, the numbers have the same digest. */
export const climatologyDigest = (content: ClimatologyContent): string => {
  const hash = createHash('sha256');
  // Streamed a location at a time: a grid climatology holds millions of numbers.
  const { locations, ...definition } = content;
  const empty = canonicalJson({ ...definition, locations: [] });
  const cut = empty.indexOf('"locations":[') + '"locations":['.length;
  hash.update(empty.slice(0, cut));
  locations.forEach((location, at) => {
    hash.update(`${at === 0 ? '' : ','}${canonicalJson(location)}`);
  });
  hash.update(empty.slice(cut));
  return `sha256:${hash.digest('hex')}`;
};
