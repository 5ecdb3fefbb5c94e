import type { Station } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceKm, gridCellOf, nearestStation } from './source-location';

// The location rules against every point, checked in exact decimal: BigInt nanodegrees and 10^-12
// degrees, never the floating point the rules themselves must not depend on.

const RESOLUTIONS = [0.000001, 0.001, 0.01, 0.05, 0.1, 0.125, 0.25, 0.5, 1, 2.5, 3, 45, 90];
const resolution = fc.constantFrom(...RESOLUTIONS);

const PLACES = 12n;
const UNIT = 10n ** PLACES;
const NANO = 10n ** 9n;

/** Decimal text read exactly into 10^-12 degrees (the test's own reading, independent of the code's). */
const scaled = (text: string): bigint => {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const magnitude = BigInt(whole) * UNIT + BigInt(fraction.padEnd(Number(PLACES), '0'));
  return negative ? -magnitude : magnitude;
};

/** Exact decimal text of a whole number of `unit`s. */
const textOf = (value: bigint, unit: bigint): string => {
  const magnitude = value < 0n ? -value : value;
  const digits = unit.toString().length - 1;
  const fraction = (magnitude % unit).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${value < 0n ? '-' : ''}${magnitude / unit}${fraction ? `.${fraction}` : ''}`;
};

/** A coordinate of up to 9 decimals as a client would type it (n nanodegrees), kept as its text: the
 *  number of a tiny one prints as 1e-9, which the code must read as exactly as any other. */
const coordinateText = (maxDegrees: number) =>
  fc.bigInt({ min: -BigInt(maxDegrees) * NANO, max: BigInt(maxDegrees) * NANO }).map((nano) => textOf(nano, NANO));
const coordinate = (maxDegrees: number) => coordinateText(maxDegrees).map(Number);

const pointText = fc.record({ lat: coordinateText(90), lon: coordinateText(180) });
const point = pointText.map(({ lat, lon }) => ({ lat: Number(lat), lon: Number(lon) }));

const cellOf = (cell: string) => {
  const [lat = '', lon = ''] = cell.split(',');
  return { lat, lon };
};

describe('grid cells', () => {
  it('hold their point: lat_min ≤ lat < lat_min + res and the same for lon, exactly', () => {
    fc.assert(
      fc.property(resolution, pointText, (res, { lat, lon }) => {
        const size = scaled(String(res));
        const cell = cellOf(gridCellOf(res, { lat: Number(lat), lon: Number(lon) }));
        const [latMin, lonMin, pointLat, pointLon] = [cell.lat, cell.lon, lat, lon].map(scaled) as [
          bigint,
          bigint,
          bigint,
          bigint,
        ];
        // The north pole sits in the top row; longitude 180 is −180.
        if (pointLat === 90n * UNIT) expect(latMin).toBe(90n * UNIT - size);
        else expect(latMin <= pointLat && pointLat < latMin + size).toBe(true);
        const wrapped = pointLon === 180n * UNIT ? -180n * UNIT : pointLon;
        expect(lonMin <= wrapped && wrapped < lonMin + size).toBe(true);
        // Cells start on the grid's lines from (−90, −180).
        expect((latMin + 90n * UNIT) % size).toBe(0n);
        expect((lonMin + 180n * UNIT) % size).toBe(0n);
      }),
      { numRuns: 2000 },
    );
  });

  it('are named in canonical shortest decimal text, never "-0"', () => {
    fc.assert(
      fc.property(resolution, point, (res, where) => {
        const { lat, lon } = cellOf(gridCellOf(res, where));
        for (const part of [lat, lon]) {
          expect(String(Number(part))).toBe(part);
          expect(part).not.toBe('-0');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('put a point exactly on a grid line in the cell north and east of it', () => {
    fc.assert(
      fc.property(resolution, fc.nat(), fc.nat(), (res, row, column) => {
        const size = scaled(String(res));
        const rows = (180n * UNIT) / size;
        const columns = (360n * UNIT) / size;
        const latMin = -90n * UNIT + (BigInt(row) % rows) * size;
        const lonMin = -180n * UNIT + (BigInt(column) % columns) * size;
        const corner = { lat: Number(textOf(latMin, UNIT)), lon: Number(textOf(lonMin, UNIT)) };
        expect(gridCellOf(res, corner)).toBe(`${textOf(latMin, UNIT)},${textOf(lonMin, UNIT)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('are the same at longitude 180 and −180', () => {
    fc.assert(
      fc.property(resolution, coordinate(90), (res, lat) => {
        expect(gridCellOf(res, { lat, lon: 180 })).toBe(gridCellOf(res, { lat, lon: -180 }));
      }),
    );
  });
});

const stationsNear = (count: number) =>
  fc.uniqueArray(
    fc.record({
      station_id: fc.stringMatching(/^[A-Z][A-Z0-9]{0,3}$/),
      // Around the antimeridian, so stations on both sides of it compete.
      lat: fc.double({ min: -3, max: 3, noNaN: true }),
      lon: fc.oneof(fc.double({ min: 179, max: 180, noNaN: true }), fc.double({ min: -180, max: -179, noNaN: true })),
    }),
    { selector: (station) => station.station_id, minLength: 1, maxLength: count },
  );

const fieldNearAntimeridian = fc.record({
  lat: fc.double({ min: -3, max: 3, noNaN: true }),
  lon: fc.oneof(fc.double({ min: 179.5, max: 180, noNaN: true }), fc.double({ min: -180, max: -179.5, noNaN: true })),
});

describe('the nearest station', () => {
  it('is within the radius and no station within it is nearer (ties to the smaller id)', () => {
    fc.assert(
      fc.property(
        stationsNear(8),
        fieldNearAntimeridian,
        fc.integer({ min: 1, max: 300 }),
        (stations, field, radius) => {
          const nearest = nearestStation(stations, radius, field);
          const inReach = stations.filter((station: Station) => distanceKm(field, station) <= radius);
          if (inReach.length === 0) {
            expect(nearest).toBeUndefined();
            return;
          }
          expect(nearest).toBeDefined();
          expect(nearest!.distanceKm).toBeLessThanOrEqual(radius);
          for (const station of inReach) {
            const distance = distanceKm(field, station);
            expect(nearest!.distanceKm <= distance).toBe(true);
            if (distance === nearest!.distanceKm) expect(nearest!.station.station_id <= station.station_id).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('is found across the antimeridian as if the line were not there', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        (lat, gap) => {
          const across = { station_id: 'ACROSS', lat, lon: -180 + gap / 2 };
          const sameSide = { station_id: 'SAME', lat, lon: 180 - gap - 0.3 };
          const field = { lat, lon: 180 - gap / 2 };
          expect(nearestStation([sameSide, across], 1000, field)?.station.station_id).toBe('ACROSS');
          expect(distanceKm(field, across)).toBeCloseTo(distanceKm({ lat, lon: -gap / 2 }, { lat, lon: gap / 2 }), 6);
          expect(distanceKm({ lat, lon: 180 }, { lat, lon: -180 })).toBeCloseTo(0, 9);
        },
      ),
    );
  });
});
