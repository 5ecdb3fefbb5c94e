import { IndexSourceEvent, IndexSourceRegisterRequest } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/decider-spec';
import {
  dataProvider,
  dataProviderWithoutOrg,
  gridSourceRegistered,
  sameOrgInsurer,
  sourceAdmin,
} from '../testing/index-sources';
import { evolveIndexSource, initialIndexSource } from './index-source';
import { registerIndexSource } from './register-index-source';

const spec = deciderSpec(initialIndexSource, evolveIndexSource, registerIndexSource);
const now = new Date('2026-03-01T00:00:00.000Z');

const stations = IndexSourceRegisterRequest.parse({
  kind: 'station',
  name: 'Kenya Met stations',
  index: 'rainfall_mm',
  stations: [{ station_id: 'KE-NBO', lat: -1.3192, lon: 36.9278 }],
});
const grid = IndexSourceRegisterRequest.parse({
  kind: 'grid',
  name: 'CHIRPS',
  index: 'rainfall_mm',
  resolution_deg: 0.05,
});
const fields = IndexSourceRegisterRequest.parse({ kind: 'field', name: 'Soil probes', index: 'ndvi' });

describe('registering an index source', () => {
  it('records a station source with its stations and the default radius', () =>
    spec
      .given([])
      .when({ actor: dataProvider, sourceId: 'src-1', request: stations, now })
      .thenEvents([
        {
          type: 'IndexSourceRegistered',
          data: {
            source_id: 'src-1',
            organization_id: 'org-data',
            name: 'Kenya Met stations',
            index: 'rainfall_mm',
            kind: 'station',
            stations: [{ station_id: 'KE-NBO', lat: -1.3192, lon: 36.9278 }],
            radius_km: 25,
            resolution_deg: null,
            registered_by: 'weather-feed',
            registered_at: now.toISOString(),
          },
        },
      ]));

  it('records a grid source with its resolution only', () => {
    const [event] = registerIndexSource(
      { actor: dataProvider, sourceId: 'src-2', request: grid, now },
      initialIndexSource,
    );
    expect(event?.data).toMatchObject({ kind: 'grid', resolution_deg: 0.05, stations: null, radius_km: null });
    expect(IndexSourceEvent.parse(event)).toEqual(event);
  });

  it('records a field source with neither stations nor resolution', () => {
    const [event] = registerIndexSource(
      { actor: dataProvider, sourceId: 'src-3', request: fields, now },
      initialIndexSource,
    );
    expect(event?.data).toMatchObject({
      kind: 'field',
      index: 'ndvi',
      stations: null,
      radius_km: null,
      resolution_deg: null,
    });
  });

  it("lets an admin register a source for the admin's organization", () => {
    const [event] = registerIndexSource(
      { actor: sourceAdmin, sourceId: 'src-4', request: grid, now },
      initialIndexSource,
    );
    expect(event?.data.organization_id).toBe('org-z');
  });

  it('refuses an insurer: sources are the data side’s', () =>
    spec
      .given([])
      .when({ actor: sameOrgInsurer, sourceId: 'src-1', request: grid, now })
      .thenRefuses('forbidden', 'forbidden'));

  it('refuses a data provider acting for no organization', () =>
    spec
      .given([])
      .when({ actor: dataProviderWithoutOrg, sourceId: 'src-1', request: grid, now })
      .thenRefuses('forbidden', 'organization_required'));

  it('refuses a source id already registered', () =>
    spec
      .given([gridSourceRegistered])
      .when({ actor: dataProvider, sourceId: 'src-grid', request: grid, now })
      .thenRefuses('conflict', 'source_exists'));

  it('replays into the registered source', () => {
    const state = [gridSourceRegistered].reduce(evolveIndexSource, initialIndexSource);
    expect(state).toEqual({
      status: 'registered',
      source: {
        sourceId: 'src-grid',
        organizationId: 'org-data',
        name: 'A grid source',
        index: 'rainfall_mm',
        kind: 'grid',
        stations: [],
        radiusKm: null,
        resolutionDeg: 0.05,
        // A source registered before descriptors (or without them) reads as before.
        unit: null,
        currency: null,
        cadence: 'daily',
        sampling: 'cell',
        product: null,
        model: null,
        registeredAt: '2026-03-01T00:00:00.000Z',
      },
    });
  });

  it('records the producer’s descriptors when given, and replays them', () => {
    const chirps = IndexSourceRegisterRequest.parse({
      kind: 'grid',
      name: 'CHIRPS dekadal',
      index: 'rainfall_mm',
      resolution_deg: 0.05,
      unit: 'mm',
      cadence: 'dekad',
      sampling: 'bilinear',
      product: { name: 'CHIRPS', version: '2.0' },
    });
    const events = registerIndexSource(
      { actor: dataProvider, sourceId: 'src-4', request: chirps, now },
      initialIndexSource,
    );
    expect(events[0]?.data).toMatchObject({
      unit: 'mm',
      cadence: 'dekad',
      sampling: 'bilinear',
      product: { name: 'CHIRPS', version: '2.0' },
    });
    expect(events[0]?.data).not.toHaveProperty('model');
    const state = events.reduce(evolveIndexSource, initialIndexSource);
    expect(state.status === 'registered' && state.source).toMatchObject({
      unit: 'mm',
      cadence: 'dekad',
      sampling: 'bilinear',
      product: { name: 'CHIRPS', version: '2.0' },
      model: null,
    });
  });

  it('refuses a unit the index name does not mean, and a currency without minor units', () => {
    const base = { kind: 'grid', name: 'x', index: 'rainfall_mm', resolution_deg: 0.05 };
    expect(IndexSourceRegisterRequest.safeParse({ ...base, unit: 'degC' }).error?.issues[0]).toMatchObject({
      path: ['unit'],
      message: 'rainfall_mm is held in mm',
    });
    expect(IndexSourceRegisterRequest.safeParse({ ...base, currency: 'USD' }).success).toBe(false);
    expect(
      IndexSourceRegisterRequest.safeParse({ ...base, index: 'loss_factor', unit: 'minor', currency: 'USD' }).success,
    ).toBe(true);
    expect(IndexSourceRegisterRequest.safeParse({ ...base, kind: 'station', sampling: 'bilinear' }).success).toBe(
      false,
    );
  });
});
