import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dailyReadings, reading } from '../testing/readings';
import { triggerTermsFor } from './product-catalog';
import { provenanceOf, readingsDigest, readingsUsedRange } from './readings-provenance';
import { evaluateTrigger } from './trigger-evaluation';

// SPEC §7 Provenance: an evaluation records exactly which readings its aggregate read, so an auditor can
// recompute the digest from (date, value, revision) without trusting today's table.

const sha256 = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const season = { start: '2026-04-01', end: '2026-08-31' };
const ndviCell = { source_id: 'src-ndvi', kind: 'grid', index: 'ndvi', location: '-1.3,36.8' } as const;
const rainCell = { ...ndviCell, source_id: 'src-rain', index: 'rainfall_mm' } as const;

describe('the dates an aggregate reads', () => {
  it('is the last N days of the window for a mean of the last N days', () => {
    const { aggregation } = triggerTermsFor('vegetation_stress', season);
    expect(aggregation).toEqual({ kind: 'mean_of_last_days', days: 30 });
    expect(readingsUsedRange(aggregation, '2026-04-01', '2026-05-30')).toEqual({
      from: '2026-05-01',
      to: '2026-05-30',
    });
    // Exactly 30 days of window: all of it; fewer: no earlier than the window starts.
    expect(readingsUsedRange(aggregation, '2026-04-01', '2026-04-30')).toEqual({
      from: '2026-04-01',
      to: '2026-04-30',
    });
    expect(readingsUsedRange(aggregation, '2026-04-01', '2026-04-10')).toEqual({
      from: '2026-04-01',
      to: '2026-04-10',
    });
  });

  it('is the whole window for a sum, a rolling sum and a maximum', () => {
    for (const peril of ['drought', 'flood', 'storm'] as const) {
      const { aggregation } = triggerTermsFor(peril, season);
      expect(readingsUsedRange(aggregation, '2026-04-01', '2026-05-30')).toEqual({
        from: '2026-04-01',
        to: '2026-05-30',
      });
    }
  });
});

describe('the provenance of an evaluation', () => {
  // A green April, then a dry May: the vegetation trigger as of 30 May reads May only.
  const april = dailyReadings('2026-04-01', Array(30).fill(0.9));
  const may = dailyReadings('2026-05-01', [...Array(20).fill(0.3), ...Array(10).fill(0.31)]);
  const mayLines = may.map(({ date, value }) => `${date},${value},1\n`).join('');

  it('of a 30-day mean names the last 30 days and digests May’s readings only', () => {
    const { aggregation } = triggerTermsFor('vegetation_stress', season);
    const provenance = provenanceOf(ndviCell, aggregation, [...april, ...may], '2026-04-01', '2026-05-30');
    expect(provenance).toEqual({
      ...ndviCell,
      aggregate: 'mean_of_last_days',
      readings_from: '2026-05-01',
      readings_to: '2026-05-30',
      readings_used: 30,
      digest: sha256(mayLines),
    });
    expect(provenanceOf(ndviCell, aggregation, may, '2026-04-01', '2026-05-30')).toEqual(provenance);
    // As many readings as the evaluation says it used.
    const outcome = evaluateTrigger(
      triggerTermsFor('vegetation_stress', season),
      [...april, ...may],
      '2026-05-30',
      season,
    );
    expect(outcome.readingsUsed).toBe(provenance.readings_used);
  });

  it('of a sum names the whole window and digests every reading in it', () => {
    const rain = dailyReadings('2026-04-01', [0, 1.5, 0.25, 12]);
    const { aggregation } = triggerTermsFor('drought', season);
    expect(
      provenanceOf(rainCell, aggregation, [reading('2026-03-31', 9), ...rain], '2026-04-01', '2026-04-04'),
    ).toEqual({
      ...rainCell,
      aggregate: 'sum',
      readings_from: '2026-04-01',
      readings_to: '2026-04-04',
      readings_used: 4,
      digest: sha256('2026-04-01,0,1\n2026-04-02,1.5,1\n2026-04-03,0.25,1\n2026-04-04,12,1\n'),
    });
  });

  it('digests the readings in date order, one per date, the later of two of a date as the upsert keeps', () => {
    const shuffled = [reading('2026-04-03', 2), reading('2026-04-01', 1), reading('2026-04-03', 2.5, 2)];
    const { aggregation } = triggerTermsFor('drought', season);
    expect(provenanceOf(rainCell, aggregation, shuffled, '2026-04-01', '2026-04-03')).toMatchObject({
      readings_used: 2,
      digest: sha256('2026-04-01,1,1\n2026-04-03,2.5,2\n'),
    });
  });

  it('digests no readings as the hash of nothing', () => {
    expect(readingsDigest([])).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
