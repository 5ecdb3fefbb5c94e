import { describe, expect, it } from 'vitest';
import { percent, utilisationBand } from './utilisation';

describe('how full a zone is', () => {
  it('falls in one band, the edges going to the fuller one', () => {
    expect([null, 0, 0.4999, 0.5, 0.7999, 0.8, 0.9499, 0.95, 1, 1.2].map(utilisationBand)).toEqual([
      'unlimited',
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'full',
      'full',
      'full',
    ]);
  });

  it('is written as a percentage to one decimal, or as no capacity', () => {
    expect(percent(0.8125)).toBe('81.3 %');
    expect(percent(1)).toBe('100.0 %');
    expect(percent(null)).toBe('no capacity');
  });
});
