import { describe, expect, it } from 'vitest';
import { inDayOrder } from './series-columns';

describe('series columns in day order', () => {
  it('sorts a list that came out of order, keeping each day with its value and revision', () => {
    const sorted = inDayOrder({
      days: Int32Array.of(20, 5, 12),
      values: Float64Array.of(2.5, 0.5, 1.25),
      revisions: Int32Array.of(3, 1, 2),
    });
    expect([...sorted.days]).toEqual([5, 12, 20]);
    expect([...sorted.values]).toEqual([0.5, 1.25, 2.5]);
    expect([...sorted.revisions]).toEqual([1, 2, 3]);
  });

  it('hands a sorted list back as it is', () => {
    const columns = { days: Int32Array.of(1, 2), values: Float64Array.of(1, 2), revisions: Int32Array.of(1, 1) };
    expect(inDayOrder(columns)).toBe(columns);
  });
});
