import type { ClimatologyLocation, ClimatologyPeriod, ClimatologyStat, FrozenClimatology } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';

/** A version of a climatology as a sheet reads it: which one, and its numbers for the locations read. */
export interface ClimatologyVersion {
  readonly source_id: string;
  readonly name: string;
  readonly version: number;
  readonly digest: string;
  readonly period: ClimatologyPeriod;
  readonly stat: ClimatologyStat;
  readonly locations: readonly ClimatologyLocation[];
}

/**
 * What a policy freezes of a climatology its sheet reads (INDEX-DATA §3): which version, and every normal of
 * the location, so it replays without the climatology. A location with no normal at all (too few complete
 * years, or never read) is a 422 `no_climatology` naming it; which periods the sheet needs is checked
 * against its blocks on the term (`checkClimatologyBlocks`).
 */
export const climatologyNormalsFor = (climatology: ClimatologyVersion, location: string): FrozenClimatology => {
  const entry = climatology.locations.find((candidate) => candidate.location === location);
  const normals = (entry?.periods ?? []).filter((normal) => normal.mean !== null);
  if (normals.length === 0) {
    throw new DomainError(
      'rejected',
      'no_climatology',
      `location ${location} has no normal in climatology ${climatology.name} version ${climatology.version}`,
      [{ path: 'location', message: 'no normal', location }],
    );
  }
  return {
    name: climatology.name,
    version: climatology.version,
    digest: climatology.digest,
    period: climatology.period,
    stat: climatology.stat,
    normals,
  };
};
