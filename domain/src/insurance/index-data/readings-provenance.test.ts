import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dailyReadings, reading } from '../../testing/readings';
import { DEFAULT_SHEET } from '../term-sheet/builtin';
import { evaluateCover } from '../term-sheet/evaluate-cover';
import { coverOf } from '../term-sheet/product';
import { dayValuesIn } from './day-values';
import type { IndexObservation } from './index-observation';
import { originDigest, readingsDigest, readingsUsedOf, sourceProvenance } from './readings-provenance';

// SPEC §7 Provenance: an evaluation records exactly which readings its index read, so an auditor can
// recompute the digest from (date, value, revision) without trusting today's table.

const sha256 = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const season = { start: '2026-04-01', end: '2026-08-31' };

/** The dates the default product's cover of `peril` read as of `asOf`. */
const readOf = (
  peril: 'drought' | 'flood' | 'vegetation_stress' | 'storm',
  asOf: string,
  readings: IndexObservation[] = [],
) =>
  evaluateCover(
    {
      cover: coverOf(DEFAULT_SHEET, peril)!,
      amounts: DEFAULT_SHEET.amounts,
      term: season,
      readings: dayValuesIn(readings, season.start, season.end),
    },
    asOf,
  ).readings;

describe('the dates an index reads', () => {
  it('is the last N days of the window for a mean of the last N days', () => {
    expect(readOf('vegetation_stress', '2026-05-30')).toEqual({ from: '2026-05-01', to: '2026-05-30' });
    // Exactly 30 days of window: all of it; fewer: no earlier than the window starts.
    expect(readOf('vegetation_stress', '2026-04-30')).toEqual({ from: '2026-04-01', to: '2026-04-30' });
    expect(readOf('vegetation_stress', '2026-04-10')).toEqual({ from: '2026-04-01', to: '2026-04-10' });
  });

  it('is the whole window for a sum, a rolling sum and a maximum', () => {
    for (const peril of ['drought', 'flood', 'storm'] as const) {
      expect(readOf(peril, '2026-05-30')).toEqual({ from: '2026-04-01', to: '2026-05-30' });
    }
  });

  it('is nothing before the window begins', () => {
    expect(readOf('flood', '2026-03-31')).toBeUndefined();
  });
});

describe('the provenance of an evaluation', () => {
  // A green April, then a dry May: the vegetation cover as of 30 May reads May only.
  const april = dailyReadings('2026-04-01', Array(30).fill(0.9));
  const may = dailyReadings('2026-05-01', [...Array(20).fill(0.3), ...Array(10).fill(0.31)]);
  const mayLines = may.map(({ date, value }) => `${date},${value},1\n`).join('');

  it('of a 30-day mean digests May’s readings only, as many as the evaluation says it used', () => {
    const { from, to } = readOf('vegetation_stress', '2026-05-30', [...april, ...may])!;
    const used = readingsUsedOf('default@1#vegetation_stress', [...april, ...may], from, to);
    expect(used).toEqual({
      aggregate: 'default@1#vegetation_stress',
      readings_from: '2026-05-01',
      readings_to: '2026-05-30',
      readings_used: 30,
      digest: sha256(mayLines),
      files: [],
      origin_digest: sha256(may.map(({ date, value }) => `${date},${value},1,,\n`).join('')),
    });
    expect(readingsUsedOf('default@1#vegetation_stress', may, from, to)).toEqual(used);
  });

  it('of a sum digests every reading of the window and none outside it', () => {
    const rain = dailyReadings('2026-04-01', [0, 1.5, 0.25, 12]);
    expect(
      readingsUsedOf('default@1#drought', [reading('2026-03-31', 9), ...rain], '2026-04-01', '2026-04-04'),
    ).toEqual({
      aggregate: 'default@1#drought',
      readings_from: '2026-04-01',
      readings_to: '2026-04-04',
      readings_used: 4,
      digest: sha256('2026-04-01,0,1\n2026-04-02,1.5,1\n2026-04-03,0.25,1\n2026-04-04,12,1\n'),
      files: [],
      origin_digest: sha256('2026-04-01,0,1,,\n2026-04-02,1.5,1,,\n2026-04-03,0.25,1,,\n2026-04-04,12,1,,\n'),
    });
  });

  it('digests the readings in date order, one per date, the later of two of a date as the upsert keeps', () => {
    const shuffled = [reading('2026-04-03', 2), reading('2026-04-01', 1), reading('2026-04-03', 2.5, 2)];
    expect(readingsUsedOf('default@1#drought', shuffled, '2026-04-01', '2026-04-03')).toMatchObject({
      readings_used: 2,
      digest: sha256('2026-04-01,1,1\n2026-04-03,2.5,2\n'),
    });
  });

  it('digests no readings as the hash of nothing', () => {
    expect(readingsDigest([])).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('the source an evaluation read, in its provenance', () => {
  it('names the climatology version it read against, not its numbers: those are the policy’s', () => {
    const normal = { period: 16, starts: '06-01', n: 39, mean: 21.5, sd: 4.25, percentiles: null };
    const source = {
      source_id: 'arc2',
      kind: 'grid' as const,
      index: 'rainfall_mm' as const,
      location: 'KE-U01',
      climatology: {
        name: 'arc2-dekadal',
        version: 2,
        digest: 'sha256:0f',
        period: 'dekad' as const,
        stat: 'sum' as const,
        normals: [normal],
      },
    };
    expect(sourceProvenance(source)).toEqual({
      source_id: 'arc2',
      kind: 'grid',
      index: 'rainfall_mm',
      location: 'KE-U01',
      climatology: { name: 'arc2-dekadal', version: 2, digest: 'sha256:0f' },
    });
    const { climatology: _none, ...plain } = source;
    expect(sourceProvenance(plain)).toEqual(plain);
  });
});

// INDEX-DATA §4: the release label and file SHA-256 of every value used, so an auditor reads each value
// again from the kept file. `digest` stays what it always was, so every evaluation recorded before still
// verifies; `origin_digest` adds where each value came from.
describe('where the values an evaluation used came from', () => {
  const PRELIM = { sha256: 'a'.repeat(64), label: 'prelim' };
  const FINAL = { sha256: 'b'.repeat(64), label: 'final' };
  const UNLABELLED = { sha256: 'c'.repeat(64), label: null };
  const fromFile = (date: string, value: number, file: { sha256: string; label: string | null }, revision = 1) => ({
    ...reading(date, value, revision),
    files: [file],
  });

  it('names each file once, with how many values it gave, earliest first, and posted values with none', () => {
    const readings = [
      fromFile('2026-04-01', 1.5, PRELIM),
      reading('2026-04-02', 2),
      fromFile('2026-04-03', 0.25, FINAL, 2),
      fromFile('2026-04-04', 12, PRELIM),
      fromFile('2026-04-05', 3, UNLABELLED),
    ];
    const used = readingsUsedOf('default@1#drought', readings, '2026-04-01', '2026-04-05');
    expect(used.files).toEqual([
      { sha256: PRELIM.sha256, label: 'prelim', values: 2 },
      { sha256: FINAL.sha256, label: 'final', values: 1 },
      { sha256: UNLABELLED.sha256, label: null, values: 1 },
    ]);
    expect(used.origin_digest).toBe(
      sha256(
        `2026-04-01,1.5,1,prelim,${PRELIM.sha256}\n2026-04-02,2,1,,\n2026-04-03,0.25,2,final,${FINAL.sha256}\n` +
          `2026-04-04,12,1,prelim,${PRELIM.sha256}\n2026-04-05,3,1,,${UNLABELLED.sha256}\n`,
      ),
    );
    // The digest of (date, value, revision) is the one every earlier evaluation recorded.
    expect(used.digest).toBe(readingsDigest(readings));
    expect(used.digest).toBe(
      sha256('2026-04-01,1.5,1\n2026-04-02,2,1\n2026-04-03,0.25,2\n2026-04-04,12,1\n2026-04-05,3,1\n'),
    );
  });

  it('moves when a final release replaces a preliminary value, and when the same value is posted instead', () => {
    const prelim = [fromFile('2026-04-01', 4, PRELIM), fromFile('2026-04-02', 5.5, PRELIM)];
    const final = [fromFile('2026-04-01', 4, PRELIM), fromFile('2026-04-02', 5.75, FINAL, 2)];
    const posted = [fromFile('2026-04-01', 4, PRELIM), reading('2026-04-02', 5.5)];
    expect(originDigest(final)).not.toBe(originDigest(prelim));
    expect(readingsUsedOf('default@1#drought', final, '2026-04-01', '2026-04-02').files).toEqual([
      { sha256: PRELIM.sha256, label: 'prelim', values: 1 },
      { sha256: FINAL.sha256, label: 'final', values: 1 },
    ]);
    // Same dates, values and revisions: only where the value came from tells them apart.
    expect(readingsDigest(posted)).toBe(readingsDigest(prelim));
    expect(originDigest(posted)).not.toBe(originDigest(prelim));
  });

  it('gives the digests of the example in docs/audit-bundle.md', () => {
    const example = [
      { ...reading('2024-03-01', 5.5), files: [{ sha256: 'a'.repeat(64), label: 'prelim' }] },
      { ...reading('2024-03-02', 3.5, 2), files: [{ sha256: 'b'.repeat(64), label: 'final' }] },
      reading('2024-03-03', 0),
    ];
    expect(readingsUsedOf('default@1#drought', example, '2024-03-01', '2024-03-03')).toMatchObject({
      digest: 'sha256:a2eb1f0c7349918b3fbf25369dd0be67f7973129d5b9d2002f96841137561164',
      origin_digest: 'sha256:e4694363fac92af280f824c51f31bb03f1ddbc94273994632cd16adcba8478b5',
      files: [
        { sha256: 'a'.repeat(64), label: 'prelim', values: 1 },
        { sha256: 'b'.repeat(64), label: 'final', values: 1 },
      ],
    });
  });

  it('lists every file a sampled value’s cells came from, by sha256, labels and digests aligned', () => {
    const sampled = [{ ...reading('2026-04-01', 7.25, 3), files: [PRELIM, FINAL] }];
    expect(originDigest(sampled)).toBe(sha256(`2026-04-01,7.25,3,prelim;final,${PRELIM.sha256};${FINAL.sha256}\n`));
    expect(readingsUsedOf('default@1#flood', sampled, '2026-04-01', '2026-04-01').files).toEqual([
      { sha256: PRELIM.sha256, label: 'prelim', values: 1 },
      { sha256: FINAL.sha256, label: 'final', values: 1 },
    ]);
  });
});
