import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { fieldSourceRegistered, gridSourceRegistered, stationSourceRegistered } from '../testing/index-sources';
import { evolveIndexSource, initialIndexSource, type RegisteredIndexSource } from './index-source';
import { fieldLocation, gridCellOf, nearestStation, readingLocation, resolveLocation } from './source-location';

const sourceOf = (event: typeof gridSourceRegistered): RegisteredIndexSource => {
  const state = evolveIndexSource(initialIndexSource, event);
  if (state.status !== 'registered') throw new Error('registered by the event');
  return state.source;
};
const grid = sourceOf(gridSourceRegistered);
const stations = sourceOf(stationSourceRegistered);
const fields = sourceOf(fieldSourceRegistered);

const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('the grid cell of a point', () => {
  it.each([
    [0.05, -1.3712, 36.8219, '-1.4,36.8'],
    [0.05, 10.05, 20.1, '10.05,20.1'],
    // 0.3 / 0.1 is 2.9999999999999996 in binary: the cell must still be the one starting at 0.3.
    [0.1, 0.3, 0.7, '0.3,0.7'],
    [0.25, -0.25, -0.75, '-0.25,-0.75'],
    [1, -0.5, -0.5, '-1,-1'],
    [1, -0, -0, '0,0'],
    [0.05, -0.0000001, 0.0000001, '-0.05,0'],
    [1, 90, 0, '89,0'],
    [1, -90, 0, '-90,0'],
    [0.05, 12.3, 180, '12.3,-180'],
    [0.05, 12.3, -180, '12.3,-180'],
    [0.05, 12.3, 179.99, '12.3,179.95'],
    [90, 45, 100, '0,90'],
    [0.000001, 1.0000015, 2.9999999, '1.000001,2.999999'],
  ])('resolution %s, (%s, %s) → %s', (resolution, lat, lon, cell) =>
    expect(gridCellOf(resolution, { lat, lon })).toBe(cell),
  );

  it('rounds a coordinate of more than 12 decimals half-up first', () => {
    expect(gridCellOf(0.05, { lat: 0.04999999999999996, lon: 0 })).toBe('0.05,0');
    expect(gridCellOf(0.05, { lat: 0.0499999999994, lon: 0 })).toBe('0,0');
  });

  it('refuses a resolution that does not tile 180 degrees, and a point off the Earth', () => {
    expect(() => gridCellOf(0.07, { lat: 0, lon: 0 })).toThrow(RangeError);
    expect(() => gridCellOf(0.05, { lat: 90.0001, lon: 0 })).toThrow(RangeError);
  });
});

describe('the nearest station', () => {
  const station = (station_id: string, lat: number, lon: number) => ({ station_id, lat, lon });

  it('takes the nearest within the radius, the radius included', () => {
    const near = station('near', 0, 0.1);
    const far = station('far', 0, 0.2);
    expect(nearestStation([far, near], 25, { lat: 0, lon: 0 })?.station).toEqual(near);
    const exactly = nearestStation([near], 25, { lat: 0, lon: 0 })!.distanceKm;
    expect(nearestStation([near], exactly, { lat: 0, lon: 0 })?.station).toEqual(near);
    expect(nearestStation([near], exactly - 1e-9, { lat: 0, lon: 0 })).toBeUndefined();
  });

  it('breaks a tie by the smaller station id, whatever the order', () => {
    const east = station('b-east', 0, 0.1);
    const west = station('a-west', 0, -0.1);
    expect(nearestStation([east, west], 25, { lat: 0, lon: 0 })?.station).toEqual(west);
    expect(nearestStation([west, east], 25, { lat: 0, lon: 0 })?.station).toEqual(west);
  });

  it('measures across the antimeridian', () => {
    const across = station('fiji-east', -17, -179.95);
    const sameSide = station('fiji-west', -17, 179.5);
    const nearest = nearestStation([sameSide, across], 25, { lat: -17, lon: 179.95 });
    expect(nearest?.station).toEqual(across);
    expect(nearest?.distanceKm).toBeCloseTo(10.64, 1);
  });
});

describe('resolving a field to a location of the source', () => {
  const field = { farmId: 'farm-1', fieldId: 'north', point: { lat: -1.3712, lon: 36.8219 } };

  it('puts a field in the cell that holds it', () =>
    expect(resolveLocation(grid, field)).toEqual({ location: '-1.4,36.8' }));

  it('reads a field from the nearest station in reach, and says how far it is', () => {
    expect(resolveLocation(stations, field)).toEqual({ location: 'KE-NBO', distanceKm: 13.116 });
  });

  it('refuses a field no station reaches', () => {
    const error = refusal(() => resolveLocation(stations, { ...field, point: { lat: 10, lon: 10 } }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ reason: 'rejected', code: 'location_not_covered' });
  });

  it('reads a field source at the field itself', () => {
    expect(resolveLocation(fields, field)).toEqual({ location: fieldLocation('farm-1', 'north') });
    expect(fieldLocation('farm-1', 'north')).toBe('farm-1/north');
  });
});

describe('where a posted reading is stored', () => {
  const unknown = (source: RegisteredIndexSource, posted: string) =>
    expect(refusal(() => readingLocation(source, posted))).toMatchObject({
      reason: 'rejected',
      code: 'unknown_location',
    });

  it('stores a station reading under a station of the source', () => {
    expect(readingLocation(stations, 'KE-KSM')).toBe('KE-KSM');
    unknown(stations, 'KE-MBA');
  });

  it('stores a grid reading posted at any point of a cell under the cell', () => {
    expect(readingLocation(grid, '-1.375,36.825')).toBe('-1.4,36.8');
    expect(readingLocation(grid, '-1.4,36.8')).toBe('-1.4,36.8');
    expect(readingLocation(grid, '-1.40,36.80000')).toBe('-1.4,36.8');
    expect(readingLocation(grid, '90,180')).toBe('89.95,-180');
    expect(readingLocation(grid, '-0.025,-0.025')).toBe('-0.05,-0.05');
    expect(readingLocation(grid, '0.0499999999999996,0')).toBe('0.05,0');
  });

  it.each(['', 'abc', '1', '1,2,3', ' 1,2', '1, 2', '91,0', '0,180.5', '1e-7,0', '+1,2', '1.,2', 'NaN,0'])(
    'refuses %j as a grid location',
    (posted) => unknown(grid, posted),
  );

  it('stores a field reading under its farm and field', () => {
    expect(readingLocation(fields, 'farm-1/north')).toBe('farm-1/north');
  });

  it.each(['farm-1', '/north', 'farm-1/', 'farm-1/no rth', 'farm-1/a/b c', 'farm-1/-north'])(
    'refuses %j as a field location',
    (posted) => unknown(fields, posted),
  );
});
