import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dateOfDay, dayNumber, daysBetween, shiftYearsBack } from './calendar-date';
import { termDays, termYearsBack } from './cover-term';
import { pastSeasons } from './seasons';

describe('calendar dates and terms', () => {
  it('numbers days as Date does, and back, across centuries and leap years', () => {
    const MS_PER_DAY = 86_400_000;
    fc.assert(
      fc.property(fc.integer({ min: dayNumber('1600-01-01'), max: dayNumber('2400-12-31') }), (day) => {
        const date = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
        expect(dateOfDay(day)).toBe(date);
        expect(dayNumber(date)).toBe(day);
      }),
      { numRuns: 2000 },
    );
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dateOfDay(dayNumber('2000-02-29'))).toBe('2000-02-29');
  });

  it('counts days across leap years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
    expect(termDays({ start: '2024-01-01', end: '2024-12-31' })).toBe(366);
  });

  it('shifts by whole years, 29 February to 28 February', () => {
    expect(shiftYearsBack('2024-02-29', 1)).toBe('2023-02-28');
    expect(shiftYearsBack('2024-02-29', 4)).toBe('2020-02-29');
    expect(shiftYearsBack('2026-02-28', -1)).toBe('2027-02-28');
    expect(termYearsBack({ start: '2026-03-01', end: '2026-08-31' }, 11)).toEqual({
      start: '2015-03-01',
      end: '2015-08-31',
    });
  });

  it('lists complete past seasons back to the earliest reading', () => {
    const term = { start: '2026-03-01', end: '2026-08-31' };
    expect(pastSeasons(term, '2026-03-01', undefined)).toEqual([]);
    expect(pastSeasons(term, '2026-03-01', '2023-09-01')).toEqual([
      { start: '2025-03-01', end: '2025-08-31' },
      { start: '2024-03-01', end: '2024-08-31' },
    ]);
    // A season ending today is not complete yet.
    expect(pastSeasons({ start: '2026-01-01', end: '2027-01-01' }, '2026-01-01', '2024-12-31')).toEqual([
      { start: '2024-01-01', end: '2025-01-01' },
    ]);
  });
});
