import { describe, expect, it } from 'vitest';
import { readingBoundsOf, withinBounds } from './reading-bounds';

describe('bounds of a source’s readings (INDEX-DATA.md §1)', () => {
  it('follow the index name when the source has no unit, as before', () => {
    const bounds = readingBoundsOf({ index: 'rainfall_mm', unit: null, cadence: 'daily' }, '2024-01-01');
    expect(bounds).toMatchObject({ min: 0, max: 1000, decimals: 6 });
  });

  it('grow with the days of the period for rain in mm', () => {
    const dekad = { index: 'rainfall_mm', unit: 'mm', cadence: 'dekad' } as const;
    expect(readingBoundsOf(dekad, '2024-01-21').max).toBe(22_000);
    expect(readingBoundsOf(dekad, '2024-02-21').max).toBe(18_000);
    expect(readingBoundsOf({ ...dekad, cadence: 'daily' }, '2024-02-21').max).toBe(2000);
  });

  it('hold counts to whole numbers and fractions to nine decimals', () => {
    const head = readingBoundsOf({ index: 'loss_factor', unit: 'head', cadence: 'season' }, '2024-01-01');
    expect(withinBounds(head, 3)).toBe(true);
    expect(withinBounds(head, 3.5)).toBe(false);
    expect(readingBoundsOf({ index: 'loss_factor', unit: 'fraction', cadence: 'season' }, '2024-01-01').decimals).toBe(
      9,
    );
    expect(withinBounds(readingBoundsOf({ index: 'ndvi', unit: 'index', cadence: 'daily' }, '2024-01-01'), 1e9)).toBe(
      true,
    );
    expect(withinBounds(readingBoundsOf({ index: 'ndvi', unit: 'ndvi', cadence: '16_day' }, '2024-01-01'), -1.5)).toBe(
      false,
    );
  });
});
