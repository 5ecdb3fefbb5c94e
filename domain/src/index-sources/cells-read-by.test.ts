import type { IndexSourceRegistered, UnitPolygon } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { fieldSourceRegistered, gridSourceRegistered, stationSourceRegistered } from '../testing/index-sources';
import { cellsReadBy } from './cells-read-by';
import { evolveIndexSource, initialIndexSource, type RegisteredIndexSource } from './index-source';
import { evolveUnitAreas, NO_UNIT_AREAS } from './unit-areas/unit-areas';

const sourceOf = (event: { type: 'IndexSourceRegistered'; data: IndexSourceRegistered }): RegisteredIndexSource => {
  const state = evolveIndexSource(initialIndexSource, event);
  if (state.status !== 'registered') throw new Error('not registered');
  return state.source;
};
const grid = (sampling: 'cell' | 'bilinear' | 'unit_mean', resolution_deg = 0.25) =>
  sourceOf({ ...gridSourceRegistered, data: { ...gridSourceRegistered.data, resolution_deg, sampling } });

const square: UnitPolygon = {
  type: 'Polygon',
  coordinates: [
    [
      [36, -1],
      [36.5, -1],
      [36.5, -0.5],
      [36, -0.5],
      [36, -1],
    ],
  ],
};
const units = evolveUnitAreas(NO_UNIT_AREAS, {
  type: 'UnitAreasRegistered',
  data: {
    source_id: 'src-grid',
    units: [{ unit_id: 'KE-01', name: 'A unit', polygon: square }],
    registered_by: 'weather-feed',
    registered_at: '2026-03-01T00:00:00.000Z',
  },
});

describe('the cells a location reads (INDEX-DATA §2.2)', () => {
  it('given cell sampling, when a cell is read, then it is that cell alone', () => {
    expect(cellsReadBy(grid('cell'), '-1.25,36.75')).toEqual(['-1.25,36.75']);
  });

  it('given unit areas, when a unit is read, then it is the cells whose centres lie in its polygon', () => {
    expect(cellsReadBy(grid('unit_mean'), 'KE-01', units)).toEqual(['-1,36', '-1,36.25', '-0.75,36', '-0.75,36.25']);
  });

  it('given bilinear sampling, when a point is read, then it is the four cells of the nearest centres', () => {
    // Centres of a 0.25° grid lie at .125 and .375: (-1.2, 36.8) sits between -1.375/-1.125 and 36.625/36.875.
    expect(cellsReadBy(grid('bilinear'), '-1.2,36.8')).toEqual([
      '-1.5,36.5',
      '-1.5,36.75',
      '-1.25,36.5',
      '-1.25,36.75',
    ]);
  });

  it('given bilinear sampling across the antimeridian, when a point is read, then the columns wrap', () => {
    expect(cellsReadBy(grid('bilinear'), '0.1,179.99')).toEqual(['-0.25,179.75', '-0.25,-180', '0,179.75', '0,-180']);
  });

  it('given bilinear sampling at a pole, when a point is read, then the rows stay on the grid', () => {
    // The top row of centres carries the whole weight; the row below is read with weight 0 (sampling/).
    expect(cellsReadBy(grid('bilinear'), '90,0.1')).toEqual(['89.5,-0.25', '89.5,0', '89.75,-0.25', '89.75,0']);
  });

  it('given a station or field source, when a location is read, then no cell is', () => {
    expect(cellsReadBy(sourceOf(stationSourceRegistered), 'KE-NBO')).toEqual([]);
    expect(cellsReadBy(sourceOf(fieldSourceRegistered), 'farm/field')).toEqual([]);
  });
});
