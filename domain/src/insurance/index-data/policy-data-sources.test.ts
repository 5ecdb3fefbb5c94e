import type { IndexSourceEvent, Peril } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../domain-error';
import { evolveFarm, initialFarm } from '../../farms/farm';
import { evolveIndexSource, type IndexSourceState, initialIndexSource } from '../../index-sources/index-source';
import { evolveUnitAreas, NO_UNIT_AREAS } from '../../index-sources/unit-areas/unit-areas';
import { fieldSourceRegistered, gridSourceRegistered, stationSourceRegistered } from '../../testing/index-sources';
import { insuredFarmEvents } from '../../testing/insured-farm';
import {
  type DataSourceResolution,
  type IndexSourceDefaults,
  namedSources,
  resolveDataSources,
} from './policy-data-sources';

// SPEC §7 "A policy names its data": the source each peril names (the request's, else the deployment's
// default for its index, else none) and where the field reads in it.

/** The farm of the tests: field "north" at (−1.29, 36.82). */
const farm = insuredFarmEvents().reduce(evolveFarm, initialFarm);
const stateOf = (event: IndexSourceEvent): IndexSourceState => evolveIndexSource(initialIndexSource, event);
const withData = (event: IndexSourceEvent, data: Partial<IndexSourceEvent['data']>): IndexSourceEvent => ({
  ...event,
  data: { ...event.data, ...data },
});

// Rainfall on a 0.05° grid and at two stations (25 km around each), NDVI per field.
const sources = new Map<string, IndexSourceState>([
  ['src-grid', stateOf(gridSourceRegistered)],
  ['src-station', stateOf(stationSourceRegistered)],
  ['src-field', stateOf(fieldSourceRegistered)],
  ['src-near-nothing', stateOf(withData(stationSourceRegistered, { source_id: 'src-near-nothing', radius_km: 5 }))],
  [
    'src-bilinear',
    stateOf(
      withData(gridSourceRegistered, {
        source_id: 'src-bilinear',
        sampling: 'bilinear',
        product: { name: 'CHIRPS', version: '2.0' },
        unit: 'mm',
        cadence: 'dekad',
        model: { name: 'chirps-blend', version: '2.0.3', digest: 'sha256:5e' },
      }),
    ),
  ],
  ['src-unit-mean', stateOf(withData(gridSourceRegistered, { source_id: 'src-unit-mean', sampling: 'unit_mean' }))],
]);

const ownField = (index: 'rainfall_mm' | 'ndvi' | 'wind_speed_ms') =>
  ({ source_id: 'organization-fields:org-1', kind: 'field', index, location: 'farm-1/north' }) as const;

/** Given what the request and the deployment name, when the field's data is resolved. */
const given = ({
  perils,
  choice,
  defaults = {},
  fieldId = 'north',
}: {
  perils: Peril[];
  choice?: Partial<Record<Peril, string>>;
  defaults?: IndexSourceDefaults;
  fieldId?: string;
}) => {
  const resolution: DataSourceResolution = {
    organizationId: 'org-1',
    farm,
    fieldId,
    perils,
    named: namedSources(perils, choice, defaults),
    sources,
  };
  return {
    thenResolves: (expected: ReturnType<typeof resolveDataSources>) =>
      expect(resolveDataSources(resolution)).toEqual(expected),
    thenRefuses: (code: string) => {
      let refusal: unknown;
      try {
        resolveDataSources(resolution);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toMatchObject({ reason: 'rejected' satisfies DomainError['reason'], code });
    },
  };
};

describe('resolving the data each peril reads', () => {
  it('reads a named grid source in the cell holding the field', () =>
    given({ perils: ['drought'], choice: { drought: 'src-grid' } }).thenResolves({
      drought: { source_id: 'src-grid', kind: 'grid', index: 'rainfall_mm', location: '-1.3,36.8' },
    }));

  it('reads a bilinear grid source at the field’s own point, with the grid it interpolates on, what its data is and the model behind it', () =>
    given({ perils: ['drought'], choice: { drought: 'src-bilinear' } }).thenResolves({
      drought: {
        source_id: 'src-bilinear',
        kind: 'grid',
        index: 'rainfall_mm',
        location: '-1.29,36.82',
        sampling: { method: 'bilinear', point: { lat: -1.29, lon: 36.82 }, resolution_deg: 0.05 },
        product: { name: 'CHIRPS', version: '2.0' },
        unit: 'mm',
        cadence: 'dekad',
        model: { name: 'chirps-blend', version: '2.0.3', digest: 'sha256:5e' },
      },
    }));

  it('reads a unit_mean grid source in the unit holding the field, from the cells whose centres lie in it', () => {
    const square = [
      [36.8, -1.3],
      [36.9, -1.3],
      [36.9, -1.25],
      [36.8, -1.25],
      [36.8, -1.3],
    ];
    const units = evolveUnitAreas(NO_UNIT_AREAS, {
      type: 'UnitAreasRegistered',
      data: {
        source_id: 'src-unit-mean',
        units: [{ unit_id: 'KE-A', name: 'Nairobi', polygon: { type: 'Polygon', coordinates: [square] as never } }],
        registered_by: 'weather-feed',
        registered_at: '2026-03-01T00:00:00.000Z',
      },
    });
    const resolved = resolveDataSources({
      organizationId: 'org-1',
      farm,
      fieldId: 'north',
      perils: ['drought'],
      named: { drought: 'src-unit-mean' },
      sources,
      units: new Map([['src-unit-mean', units]]),
    });
    expect(resolved.drought).toEqual({
      source_id: 'src-unit-mean',
      kind: 'grid',
      index: 'rainfall_mm',
      location: 'KE-A',
      sampling: { method: 'unit_mean', cells: ['-1.3,36.8', '-1.3,36.85'] },
    });
  });

  it('reads a named station source at the nearest station within its radius, with the distance to it', () =>
    // KE-NBO (−1.3192, 36.9278) is 12.416 km away by haversine; KE-KSM over 260 km.
    given({ perils: ['flood'], choice: { flood: 'src-station' } }).thenResolves({
      flood: {
        source_id: 'src-station',
        kind: 'station',
        index: 'rainfall_mm',
        location: 'KE-NBO',
        distance_km: 12.416,
      },
    }));

  it('reads a named field source at the field itself', () =>
    given({ perils: ['vegetation_stress'], choice: { vegetation_stress: 'src-field' } }).thenResolves({
      vegetation_stress: { source_id: 'src-field', kind: 'field', index: 'ndvi', location: 'farm-1/north' },
    }));

  it('reads the organization’s own field readings when neither the request nor the deployment names one', () =>
    given({ perils: ['drought', 'vegetation_stress', 'storm'] }).thenResolves({
      drought: ownField('rainfall_mm'),
      vegetation_stress: ownField('ndvi'),
      storm: ownField('wind_speed_ms'),
    }));

  it('uses the deployment’s default for the index when the request names none, and the request’s over it', () => {
    given({ perils: ['drought', 'storm'], defaults: { rainfall_mm: 'src-grid' } }).thenResolves({
      drought: { source_id: 'src-grid', kind: 'grid', index: 'rainfall_mm', location: '-1.3,36.8' },
      storm: ownField('wind_speed_ms'),
    });
    given({
      perils: ['drought', 'flood'],
      choice: { flood: 'src-station' },
      defaults: { rainfall_mm: 'src-grid' },
    }).thenResolves({
      drought: { source_id: 'src-grid', kind: 'grid', index: 'rainfall_mm', location: '-1.3,36.8' },
      flood: {
        source_id: 'src-station',
        kind: 'station',
        index: 'rainfall_mm',
        location: 'KE-NBO',
        distance_km: 12.416,
      },
    });
  });

  it('refuses a source the log does not hold', () => {
    given({ perils: ['drought'], choice: { drought: 'src-nowhere' } }).thenRefuses('unknown_source');
    given({ perils: ['drought'], defaults: { rainfall_mm: 'src-nowhere' } }).thenRefuses('unknown_source');
  });

  it('refuses a source of another index than the peril reads', () =>
    given({ perils: ['drought'], choice: { drought: 'src-field' } }).thenRefuses('source_index_mismatch'));

  it('refuses a named source for a field the farm has not registered: it has no location to find', () => {
    given({ perils: ['drought'], choice: { drought: 'src-grid' }, fieldId: 'south' }).thenRefuses(
      'field_not_registered',
    );
    // With nothing named, the organization's own readings of that field id are what it reads.
    given({ perils: ['drought'], fieldId: 'south' }).thenResolves({
      drought: { ...ownField('rainfall_mm'), location: 'farm-1/south' },
    });
  });

  it('refuses a station source with no station within its radius of the field', () =>
    given({ perils: ['flood'], choice: { flood: 'src-near-nothing' } }).thenRefuses('location_not_covered'));

  it('refuses a farm the registry does not hold', () => {
    expect(() =>
      resolveDataSources({
        organizationId: 'org-1',
        farm: initialFarm,
        fieldId: 'north',
        perils: [],
        named: {},
        sources,
      }),
    ).toThrow(expect.objectContaining({ reason: 'not_found', code: 'not_found' }));
  });
});
