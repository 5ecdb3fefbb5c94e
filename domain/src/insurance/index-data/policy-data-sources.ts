import type {
  DataSourceChoice,
  LocationSampling,
  Peril,
  PolicyDataSources,
  ReadingIndex,
  TermSheet,
} from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import type { Farm } from '../../farms/farm';
import type { IndexSourceState, RegisteredIndexSource } from '../../index-sources/index-source';
import { type InsuredField, type ResolvedLocation, resolveLocation } from '../../index-sources/source-location';
import { cellsOfUnit } from '../../index-sources/unit-areas/cells-of-unit';
import type { UnitAreas } from '../../index-sources/unit-areas/unit-areas';
import { fieldUnitLocation } from '../../index-sources/unit-areas/unit-location';
import { DEFAULT_SHEET } from '../term-sheet/builtin';
import { productCover } from '../term-sheet/product';
import { registeredFarmOf } from '../underwriting/priced-cover';
import { ownFieldData } from './peril-data';

/** The deployment's default source per index (configuration), used when a request names none. */
export type IndexSourceDefaults = Partial<Record<ReadingIndex, string>>;

/** The source each peril names: the request's choice, else the deployment's default for its index;
 *  absent when neither names one (the policy then reads its organization's own field readings). */
export const namedSources = (
  perils: readonly Peril[],
  choice: DataSourceChoice | undefined,
  defaults: IndexSourceDefaults,
  sheet: TermSheet = DEFAULT_SHEET,
): Partial<Record<Peril, string>> =>
  Object.fromEntries(
    perils.flatMap((peril) => {
      const sourceId = choice?.[peril] ?? defaults[productCover(sheet, peril).reading];
      return sourceId === undefined ? [] : [[peril, sourceId]];
    }),
  );

export interface DataSourceResolution {
  readonly organizationId: string;
  readonly farm: Farm;
  readonly fieldId: string;
  readonly perils: readonly Peril[];
  /** What `namedSources` gave. */
  readonly named: Partial<Record<Peril, string>>;
  /** Each named source as the log holds it. */
  readonly sources: ReadonlyMap<string, IndexSourceState>;
  /** The unit areas of each named source that has any. */
  readonly units?: ReadonlyMap<string, UnitAreas>;
}

/** Where the field reads the source, and how (INDEX-DATA §1 `sampling`): a `bilinear` grid at the
 *  field's own point, between the four nearest cell centres; a source with unit areas in the unit holding
 *  the field — from the mean of the unit's cells on a `unit_mean` grid, else from the series posted for
 *  the unit; otherwise the one location `resolveLocation` gives. */
const sampledLocation = (
  source: RegisteredIndexSource,
  units: UnitAreas | undefined,
  insured: InsuredField,
): ResolvedLocation & { readonly sampling?: LocationSampling } => {
  if (source.kind === 'grid' && source.sampling === 'bilinear' && source.resolutionDeg !== null) {
    const { lat, lon } = insured.point;
    return {
      location: `${lat},${lon}`,
      sampling: { method: 'bilinear', point: { lat, lon }, resolution_deg: source.resolutionDeg },
    };
  }
  if (units === undefined || units.size === 0) return resolveLocation(source, insured);
  const unit = fieldUnitLocation(source.sourceId, units, insured);
  const polygon = units.get(unit.location)?.polygon;
  if (source.kind !== 'grid' || source.sampling !== 'unit_mean' || polygon === undefined || !source.resolutionDeg) {
    return unit;
  }
  return { ...unit, sampling: { method: 'unit_mean', cells: cellsOfUnit(polygon, source.resolutionDeg) } };
};

/** SPEC §7 "A policy names its data": each peril's source and the location the field reads in it — the
 *  unit area holding the field in a source that has units (INDEX-DATA §2.4), else the cell holding the
 *  field, the nearest station within the source's radius, or the field itself. */
export const resolveDataSources = (
  resolution: DataSourceResolution,
  sheet: TermSheet = DEFAULT_SHEET,
): PolicyDataSources => {
  const farm = registeredFarmOf(resolution.farm);
  const field = farm.fields.find((candidate) => candidate.fieldId === resolution.fieldId);
  return Object.fromEntries(
    resolution.perils.map((peril) => {
      const index = productCover(sheet, peril).reading;
      const sourceId = resolution.named[peril];
      if (sourceId === undefined) {
        return [peril, ownFieldData(resolution.organizationId, farm.farmId, resolution.fieldId, index)];
      }
      const state = resolution.sources.get(sourceId);
      if (state?.status !== 'registered') {
        throw new DomainError('rejected', 'unknown_source', `${peril}: no index source ${sourceId}`);
      }
      const { source } = state;
      if (source.index !== index) {
        throw new DomainError(
          'rejected',
          'source_index_mismatch',
          `${peril} reads ${index}, but source ${sourceId} holds ${source.index}`,
        );
      }
      if (field === undefined) {
        throw new DomainError(
          'rejected',
          'field_not_registered',
          `${peril}: field ${resolution.fieldId} has no registered location to find in source ${sourceId}`,
        );
      }
      const insured = { farmId: farm.farmId, fieldId: field.fieldId, point: field.location };
      const resolved = sampledLocation(source, resolution.units?.get(sourceId), insured);
      return [
        peril,
        {
          source_id: source.sourceId,
          kind: source.kind,
          index,
          location: resolved.location,
          ...(resolved.distanceKm === undefined ? {} : { distance_km: resolved.distanceKm }),
          ...(resolved.sampling === undefined ? {} : { sampling: resolved.sampling }),
          ...(source.product === null ? {} : { product: source.product }),
          ...(source.unit === null ? {} : { unit: source.unit }),
          ...(source.cadence === 'daily' ? {} : { cadence: source.cadence }),
          ...(source.model === null ? {} : { model: source.model }),
        },
      ];
    }),
  );
};
