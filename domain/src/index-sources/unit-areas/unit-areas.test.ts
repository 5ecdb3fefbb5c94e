import { UnitAreasRequest, type UnitPolygon } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { dataProvider, gridSourceRegistered, otherDataProvider, sameOrgInsurer } from '../../testing/index-sources';
import { evolveIndexSource, initialIndexSource } from '../index-source';
import { cellsOfUnit } from './cells-of-unit';
import { registerUnitAreas } from './register-unit-areas';
import { evolveUnitAreas, NO_UNIT_AREAS, type UnitAreas } from './unit-areas';
import { unitContaining } from './unit-containing';
import { fieldUnitLocation, readingLocationWithUnits } from './unit-location';
import { unitMean } from './unit-mean';

const square = (west: number, south: number, east: number, north: number): number[][] => [
  [west, south],
  [east, south],
  [east, north],
  [west, north],
  [west, south],
];
const polygon = (...rings: number[][][]): UnitPolygon => ({ type: 'Polygon', coordinates: rings as never });

const unitsOf = (...units: { unit_id: string; polygon: UnitPolygon }[]): UnitAreas =>
  evolveUnitAreas(NO_UNIT_AREAS, {
    type: 'UnitAreasRegistered',
    data: {
      source_id: 'src-grid',
      units: units.map((unit) => ({ ...unit, name: unit.unit_id })),
      registered_by: 'weather-feed',
      registered_at: '2026-03-01T00:00:00.000Z',
    },
  });

describe('the cells a unit area reads', () => {
  it('are the cells whose centres lie inside its polygon, south to north, west to east', () => {
    expect(cellsOfUnit(polygon(square(36, -1, 36.5, -0.5)), 0.25)).toEqual([
      '-1,36',
      '-1,36.25',
      '-0.75,36',
      '-0.75,36.25',
    ]);
  });

  it('leave out the cells of a hole, and take every part of a multipolygon', () => {
    const holed = polygon(square(0, 0, 0.75, 0.75), square(0.3, 0.3, 0.45, 0.45));
    expect(cellsOfUnit(holed, 0.25)).toHaveLength(8);
    expect(cellsOfUnit(holed, 0.25)).not.toContain('0.25,0.25');
    const parts: UnitPolygon = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 0.25, 0.25)], [square(10, 10, 10.25, 10.25)]] as never,
    };
    expect(cellsOfUnit(parts, 0.25)).toEqual(['0,0', '10,10']);
  });

  it('count a centre on the boundary as inside', () => {
    expect(cellsOfUnit(polygon(square(0, 0, 0.125, 0.125)), 0.25)).toEqual(['0,0']);
    expect(cellsOfUnit(polygon(square(0.125, 0.125, 0.375, 0.375)), 0.25)).toEqual([
      '0,0',
      '0,0.25',
      '0.25,0',
      '0.25,0.25',
    ]);
  });

  it('are the cell holding its centroid when no centre lies inside it', () => {
    // A sliver between centres: its area's centroid is at (0.2, 0.02), in cell 0,0 of 0.25°.
    expect(cellsOfUnit(polygon(square(0.15, 0.01, 0.25, 0.03)), 0.25)).toEqual(['0,0']);
    // Longitudes west of Greenwich and latitudes south of the equator name the cell by its south-west corner.
    expect(cellsOfUnit(polygon(square(-0.2, -0.2, -0.15, -0.15)), 0.25)).toEqual(['-0.25,-0.25']);
  });

  it('reach the edges of the grid', () => {
    expect(cellsOfUnit(polygon(square(179, 89, 180, 90)), 1)).toEqual(['89,179']);
    expect(cellsOfUnit(polygon(square(-180, -90, -179, -89)), 1)).toEqual(['-90,-180']);
  });
});

describe('the unit a field lies in', () => {
  const units = unitsOf(
    { unit_id: 'KE-B', polygon: polygon(square(1, 0, 2, 1)) },
    { unit_id: 'KE-A', polygon: polygon(square(0, 0, 1, 1)) },
  );

  it('is the unit whose polygon holds it', () => {
    expect(unitContaining(units, { lat: 0.5, lon: 1.5 })?.unitId).toBe('KE-B');
    expect(unitContaining(units, { lat: 0.5, lon: 0.5 })?.unitId).toBe('KE-A');
  });

  it('is the lowest unit_id on a shared boundary, whichever was registered first', () => {
    expect(unitContaining(units, { lat: 0.5, lon: 1 })?.unitId).toBe('KE-A');
  });

  it('is none outside every unit', () => {
    expect(unitContaining(units, { lat: 5, lon: 5 })).toBeUndefined();
  });
});

describe('a source with unit areas', () => {
  const units = unitsOf({ unit_id: 'KE-A', polygon: polygon(square(36, -1, 37, 0)) });
  const grid = evolveIndexSource(initialIndexSource, gridSourceRegistered);
  if (grid.status !== 'registered') throw new Error('a registered grid source');

  it('reads a field in the unit holding it, and covers no field outside its units', () => {
    const field = { farmId: 'farm-1', fieldId: 'f1', point: { lat: -0.5, lon: 36.5 } };
    expect(fieldUnitLocation('src-grid', units, field)).toEqual({ location: 'KE-A' });
    expect(() => fieldUnitLocation('src-grid', units, { ...field, point: { lat: 5, lon: 5 } })).toThrow(
      expect.objectContaining({ code: 'location_not_covered' }),
    );
  });

  it('takes readings by unit_id beside its own locations', () => {
    expect(readingLocationWithUnits(grid.source, units, 'KE-A')).toBe('KE-A');
    expect(readingLocationWithUnits(grid.source, units, '-0.52,36.51')).toBe('-0.55,36.5');
    expect(() => readingLocationWithUnits(grid.source, units, 'KE-B')).toThrow(
      expect.objectContaining({ code: 'unknown_location' }),
    );
  });
});

describe('the unit mean', () => {
  it('is exact, rounded once to 6 decimals half up', () => {
    expect(unitMean([0.1, 0.2])).toBe(0.15);
    expect(unitMean([1, 2, 2])).toBe(1.666667);
    expect(unitMean([0.000001, 0.000002])).toBe(0.000002);
    expect(unitMean([0.1, 0.1, 0.1])).toBe(0.1);
  });

  it('is no value without cells', () => {
    expect(unitMean([])).toBeUndefined();
  });
});

describe('registering unit areas', () => {
  const source = evolveIndexSource(initialIndexSource, gridSourceRegistered);
  const now = new Date('2026-03-02T00:00:00.000Z');
  const request = UnitAreasRequest.parse({
    units: [{ unit_id: 'KE-A', name: 'Marsabit North', polygon: polygon(square(0, 0, 1, 1)) }],
  });

  it('records the new units', () => {
    expect(
      registerUnitAreas({ actor: dataProvider, sourceId: 'src-grid', request, now }, source, NO_UNIT_AREAS),
    ).toEqual([
      {
        type: 'UnitAreasRegistered',
        data: {
          source_id: 'src-grid',
          units: request.units,
          registered_by: 'weather-feed',
          registered_at: '2026-03-02T00:00:00.000Z',
        },
      },
    ]);
  });

  it('records nothing for a unit sent again as registered', () => {
    const registered = unitsOf({ unit_id: 'KE-A', polygon: polygon(square(0, 0, 1, 1)) });
    const same = UnitAreasRequest.parse({ units: [{ ...request.units[0], name: 'KE-A' }] });
    expect(
      registerUnitAreas({ actor: dataProvider, sourceId: 'src-grid', request: same, now }, source, registered),
    ).toEqual([]);
  });

  it('refuses a registered unit with another polygon, another organization, and an unknown source', () => {
    const registered = unitsOf({ unit_id: 'KE-A', polygon: polygon(square(0, 0, 2, 2)) });
    const attempt =
      (actor = dataProvider, state = source, units = registered) =>
      () =>
        registerUnitAreas({ actor, sourceId: 'src-grid', request, now }, state, units);
    expect(attempt()).toThrow(expect.objectContaining({ code: 'unit_exists' }));
    expect(attempt(otherDataProvider, source, NO_UNIT_AREAS)).toThrow(
      expect.objectContaining({ code: 'not_source_owner' }),
    );
    expect(attempt(sameOrgInsurer, source, NO_UNIT_AREAS)).toThrow(
      expect.objectContaining({ code: 'not_source_owner' }),
    );
    expect(attempt(dataProvider, initialIndexSource, NO_UNIT_AREAS)).toThrow(
      expect.objectContaining({ code: 'source_not_found' }),
    );
  });
});

describe('a unit area polygon', () => {
  const refused = (polygonJson: unknown) =>
    UnitAreasRequest.safeParse({ units: [{ unit_id: 'U1', name: 'u', polygon: polygonJson }] }).error?.issues.map(
      (issue) => issue.path.join('.'),
    );

  it('must close its rings, hold 4 positions and stay on Earth', () => {
    expect(
      refused({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      }),
    ).toEqual(['units.0.polygon.coordinates.0']);
    expect(
      refused({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }),
    ).toEqual(['units.0.polygon.coordinates.0']);
    expect(refused({ type: 'Polygon', coordinates: [square(0, 0, 181, 1)] })).toEqual([
      'units.0.polygon.coordinates.0.1.0',
      'units.0.polygon.coordinates.0.2.0',
    ]);
    expect(refused({ type: 'Point', coordinates: [0, 0] })).toEqual(['units.0.polygon.type']);
    expect(refused({ type: 'Polygon', coordinates: [square(0, 0, 1, 1)] })).toBeUndefined();
  });
});
