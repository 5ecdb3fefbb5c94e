import type { ClimatologyLocation, ClimatologyNormal, ClimatologyPeriod, ClimatologyStat } from '@cropcover/contracts';
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

/** What a policy freezes at issue (INDEX-DATA §3): the climatology's name, version and digest and exactly
 *  the numbers of its location, so it replays without the climatology. */
export interface FrozenNormals {
  readonly climatology: { readonly name: string; readonly version: number; readonly digest: string };
  readonly source_id: string;
  readonly location: string;
  readonly period: ClimatologyPeriod;
  readonly stat: ClimatologyStat;
  readonly normals: readonly ClimatologyNormal[];
}

/**
 * The normals of a location, for a sheet that reads them against this climatology: every period of the
 * year that has a normal, or just the `periods` asked for. A location with no normal for a period needed
 * (too few complete years, or never read) is a 422 `no_climatology` naming it.
 */
export const climatologyNormalsFor = (
  climatology: ClimatologyVersion,
  location: string,
  periods?: readonly number[],
): FrozenNormals => {
  const entry = climatology.locations.find((candidate) => candidate.location === location);
  const normals = (entry?.periods ?? []).filter(
    (normal) => normal.mean !== null && (periods === undefined || periods.includes(normal.period)),
  );
  const missing = (periods ?? []).filter((period) => !normals.some((normal) => normal.period === period));
  if (normals.length === 0 || missing.length > 0) {
    const which = missing.length > 0 ? ` for period ${missing.join(', ')}` : '';
    throw new DomainError(
      'rejected',
      'no_climatology',
      `location ${location} has no normal in climatology ${climatology.name} version ${climatology.version}${which}`,
      [{ path: 'location', message: `no normal${which}`, location }],
    );
  }
  return {
    climatology: { name: climatology.name, version: climatology.version, digest: climatology.digest },
    source_id: climatology.source_id,
    location,
    period: climatology.period,
    stat: climatology.stat,
    normals,
  };
};
