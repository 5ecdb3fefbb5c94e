import { describe, expect, it } from 'vitest';
import type { IndexObservation } from '../../insurance/index-data/index-observation';
import { bilinearNeighbours } from './bilinear-neighbours';
import { equallyWeighted } from './sampled-cells';
import { sampledSeries } from './sampled-series';

const on = (date: string, value: number, revision = 1): IndexObservation => ({ date, value, revision });
const series =
  (byCell: Record<string, readonly IndexObservation[]>) =>
  (cell: string): readonly IndexObservation[] =>
    byCell[cell] ?? [];

describe('the bilinear neighbours of a point', () => {
  it('are the four nearest cell centres, weighted by the point’s place between them', () => {
    // 0.25° grid: centres at −1.375/−1.125 and 30.375/30.625; (−1.3, 30.5) is 0.075 north and 0.125 east of
    // the south-west centre, so fy = 0.3 and fx = 0.5: weights 0.35, 0.35, 0.15, 0.15 (× 0.0625 = size²).
    const { cells, denominator } = bilinearNeighbours({ lat: -1.3, lon: 30.5 }, 0.25);
    const hundredths = (share: bigint): bigint => (share * denominator) / 100n;
    expect(cells).toEqual([
      { cell: '-1.5,30.25', weight: hundredths(35n) },
      { cell: '-1.5,30.5', weight: hundredths(35n) },
      { cell: '-1.25,30.25', weight: hundredths(15n) },
      { cell: '-1.25,30.5', weight: hundredths(15n) },
    ]);
    expect(cells.reduce((sum, { weight }) => sum + weight, 0n)).toBe(denominator);
  });

  it('wrap at the antimeridian and read the outermost row alone beyond the last centres', () => {
    const across = bilinearNeighbours({ lat: 0.5, lon: 179.9 }, 1);
    expect(across.cells.map(({ cell }) => cell)).toEqual(['0,179', '0,-180', '1,179', '1,-180']);
    const polar = bilinearNeighbours({ lat: 89.9, lon: 0.5 }, 1);
    expect(polar.cells.map(({ cell, weight }) => [cell, weight === 0n])).toEqual([
      ['88,0', true],
      ['88,1', true],
      ['89,0', false],
      ['89,1', true],
    ]);
  });
});

describe('a bilinear reading', () => {
  const at = bilinearNeighbours({ lat: -1.3, lon: 30.5 }, 0.25);
  const four = (sw: number, se: number, nw: number, ne: number, revision = 1) => ({
    '-1.5,30.25': [on('2024-03-01', sw, revision)],
    '-1.5,30.5': [on('2024-03-01', se)],
    '-1.25,30.25': [on('2024-03-01', nw)],
    '-1.25,30.5': [on('2024-03-01', ne)],
  });

  it('equals the hand computation, exact before one rounding to 6 decimals half up', () => {
    // 0.35 × 1.000001 + 0.35 × 2.5 + 0.15 × 3.333333 + 0.15 × 7 = 2.7750003 → 2.775
    expect(sampledSeries(at, series(four(1.000001, 2.5, 3.333333, 7)))).toEqual([on('2024-03-01', 2.775, 4)]);
    // 0.35 × 0.000001 + 0.35 × 0.000002 + 0.15 × 0.000009 + 0.15 × 0.000001 = 0.0000025 → 0.000003 (half up)
    expect(sampledSeries(at, series(four(0.000001, 0.000002, 0.000009, 0.000001)))[0]?.value).toBe(0.000003);
    // Ties go away from zero below it too: −0.0000025 → −0.000003.
    expect(sampledSeries(at, series(four(-0.000001, -0.000002, -0.000009, -0.000001)))[0]?.value).toBe(-0.000003);
  });

  it('is missing on a date any weighted neighbour misses, never 0', () => {
    const holed = { ...four(1, 2, 3, 4), '-1.25,30.5': [on('2024-03-02', 4)] };
    expect(sampledSeries(at, series(holed))).toEqual([]);
  });

  it('needs no value from a neighbour of weight 0', () => {
    const onCentre = bilinearNeighbours({ lat: -1.375, lon: 30.375 }, 0.25);
    expect(sampledSeries(onCentre, series({ '-1.5,30.25': [on('2024-03-01', 7.25, 2)] }))).toEqual([
      on('2024-03-01', 7.25, 2),
    ]);
  });

  it('sums the revisions of the values it used', () => {
    expect(sampledSeries(at, series(four(1, 2, 3, 4, 3)))[0]?.revision).toBe(6);
  });

  it('names each distinct file its cells came from, by sha256, and none when every cell was posted', () => {
    const prelim = { sha256: 'b'.repeat(64), label: 'prelim' };
    const final = { sha256: 'a'.repeat(64), label: 'final' };
    const cells = four(1, 2, 3, 4);
    const fromFiles = {
      '-1.5,30.25': [{ ...on('2024-03-01', 1, 2), files: [final] }],
      '-1.5,30.5': [{ ...on('2024-03-01', 2), files: [prelim] }],
      '-1.25,30.25': [{ ...on('2024-03-01', 3), files: [prelim] }],
      '-1.25,30.5': cells['-1.25,30.5'],
    };
    expect(sampledSeries(at, series(fromFiles))[0]?.files).toEqual([final, prelim]);
    expect(sampledSeries(at, series(cells))[0]).not.toHaveProperty('files');
  });
});

describe('a unit mean from grid cells', () => {
  it('is the exact mean of its cells rounded once, and missing when any cell is', () => {
    const unit = equallyWeighted(['0,0', '0,0.25', '0.25,0']);
    const cells = { '0,0': [on('2024-03-01', 1)], '0,0.25': [on('2024-03-01', 2)], '0.25,0': [on('2024-03-01', 2)] };
    expect(sampledSeries(unit, series(cells))).toEqual([on('2024-03-01', 1.666667, 3)]);
    expect(sampledSeries(unit, series({ ...cells, '0.25,0': [] }))).toEqual([]);
  });
});
