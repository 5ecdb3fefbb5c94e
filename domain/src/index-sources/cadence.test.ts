import { describe, expect, it } from 'vitest';
import { periodOf, startsPeriod } from './cadence';

describe('cadence periods, dated by their first day (INDEX-DATA.md §1)', () => {
  it('dekads are 1–10, 11–20 and 21 to the month end', () => {
    expect(periodOf('dekad', '2024-02-05')).toEqual({ start: '2024-02-01', end: '2024-02-10', days: 10 });
    expect(periodOf('dekad', '2024-02-20')).toEqual({ start: '2024-02-11', end: '2024-02-20', days: 10 });
    expect(periodOf('dekad', '2024-02-29')).toEqual({ start: '2024-02-21', end: '2024-02-29', days: 9 });
    expect(periodOf('dekad', '2023-02-21')).toEqual({ start: '2023-02-21', end: '2023-02-28', days: 8 });
    expect(periodOf('dekad', '2024-01-31')).toEqual({ start: '2024-01-21', end: '2024-01-31', days: 11 });
  });

  it('pentads are six a month, the last to the month end', () => {
    expect(periodOf('pentad', '2024-03-07')).toEqual({ start: '2024-03-06', end: '2024-03-10', days: 5 });
    expect(periodOf('pentad', '2024-03-31')).toEqual({ start: '2024-03-26', end: '2024-03-31', days: 6 });
  });

  it('8- and 16-day composites count from 1 January, the last cut at 31 December (MODIS)', () => {
    expect(periodOf('8_day', '2023-01-09')).toEqual({ start: '2023-01-09', end: '2023-01-16', days: 8 });
    expect(periodOf('8_day', '2023-03-01')).toEqual({ start: '2023-02-26', end: '2023-03-05', days: 8 });
    // Day 361 of a common year starts the 46th composite, which has 5 days; a leap year's has 6.
    expect(periodOf('8_day', '2023-12-31')).toEqual({ start: '2023-12-27', end: '2023-12-31', days: 5 });
    expect(periodOf('8_day', '2024-12-31')).toEqual({ start: '2024-12-26', end: '2024-12-31', days: 6 });
    expect(periodOf('16_day', '2023-12-31')).toEqual({ start: '2023-12-19', end: '2023-12-31', days: 13 });
    expect(periodOf('16_day', '2024-02-02')).toEqual({ start: '2024-02-02', end: '2024-02-17', days: 16 });
  });

  it('months from the 1st, days and seasons from themselves', () => {
    expect(periodOf('month', '2024-02-14')).toEqual({ start: '2024-02-01', end: '2024-02-29', days: 29 });
    expect(periodOf('daily', '2024-02-14')).toEqual({ start: '2024-02-14', end: '2024-02-14', days: 1 });
    expect(startsPeriod('season', '2024-10-03')).toBe(true);
  });

  it('only a period’s first day dates a reading', () => {
    expect(startsPeriod('dekad', '2024-05-11')).toBe(true);
    expect(startsPeriod('dekad', '2024-05-12')).toBe(false);
    expect(startsPeriod('16_day', '2024-01-17')).toBe(true);
    expect(startsPeriod('month', '2024-05-02')).toBe(false);
  });

  it('every day of a year lies in exactly one period of each cadence, and periods tile the year', () => {
    for (const cadence of ['pentad', 'dekad', '8_day', '16_day', 'month'] as const) {
      let next = '2024-01-01';
      while (next < '2025-01-01') {
        const period = periodOf(cadence, next);
        expect(period.start).toBe(next);
        const after = new Date(`${period.end}T00:00:00Z`);
        after.setUTCDate(after.getUTCDate() + 1);
        expect((Date.parse(`${period.end}T00:00:00Z`) - Date.parse(`${period.start}T00:00:00Z`)) / 86_400_000 + 1).toBe(
          period.days,
        );
        next = after.toISOString().slice(0, 10);
      }
      expect(next).toBe('2025-01-01');
    }
  });
});
