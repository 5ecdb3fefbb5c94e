import { describe, expect, it } from 'vitest';
import { evaluateTrigger } from '../../testing/frozen-trigger';
import { dailyReadings as daily, reading } from '../../testing/readings';
import { triggerTermsFor } from './builtin';

const term = { start: '2026-04-01', end: '2026-04-10' };

describe('the trigger table', () => {
  it('scales the drought threshold and exit with the term days', () => {
    expect(triggerTermsFor('drought', term)).toMatchObject({ threshold: 20, exit: 8, comparison: 'lte' });
    expect(triggerTermsFor('drought', { start: '2026-01-01', end: '2026-12-31' })).toMatchObject({
      threshold: 730,
      exit: 292,
    });
    expect(triggerTermsFor('flood', term)).toMatchObject({
      threshold: 150,
      exit: 300,
      trigger_index: 'max_5day_rainfall_mm',
    });
  });
});

describe('drought: cumulative rainfall, declared only once the window closed', () => {
  const drought = triggerTermsFor('drought', term);

  it('breaches at term end with linear severity', () => {
    const outcome = evaluateTrigger(drought, daily(term.start, Array(10).fill(1)), '2026-04-30', term);
    expect(outcome).toEqual({
      windowStart: '2026-04-01',
      windowEnd: '2026-04-10',
      observedValue: 10,
      readingsUsed: 10,
      breached: true,
      // 20 mm threshold − 10 mm observed, of the 12 mm from threshold to exit (8 mm): exactly 5/6.
      severity: { depth: 10_000_000n, span: 12_000_000n },
      severityPpm: 833_333,
      coverage: { daysWithReading: 10, daysInWindow: 10 },
      skipReason: null,
    });
  });

  it('reports the rain so far but cannot breach before the window closed', () => {
    const outcome = evaluateTrigger(drought, daily(term.start, [0, 0, 0]), '2026-04-03', term);
    expect(outcome).toMatchObject({ windowEnd: '2026-04-03', observedValue: 0, breached: false, severityPpm: 0 });
  });

  it('skips a window read on one day of seven: one dry day is no drought', () => {
    const week = { start: '2026-04-01', end: '2026-04-07' };
    const outcome = evaluateTrigger(triggerTermsFor('drought', week), daily(week.start, [0]), week.end, week);
    expect(outcome).toEqual({
      windowStart: '2026-04-01',
      windowEnd: '2026-04-07',
      observedValue: null,
      readingsUsed: 0,
      breached: false,
      severity: { depth: 0n, span: 1n },
      severityPpm: 0,
      coverage: { daysWithReading: 1, daysInWindow: 7 },
      skipReason: 'incomplete_data',
    });
  });

  it('skips a window read only on its rainy days: a gap never hides a drought as wet either', () => {
    const rainyDaysOnly = daily(term.start, [30, 30, 30, 30, 30]);
    expect(evaluateTrigger(drought, rainyDaysOnly, term.end, term)).toMatchObject({
      observedValue: null,
      skipReason: 'incomplete_data',
      coverage: { daysWithReading: 5, daysInWindow: 10 },
    });
  });

  it('evaluates 90% of the days with each missing day at 1000 mm: a breach must hold whatever it rained', () => {
    const nineDry = daily(term.start, Array(9).fill(0));
    expect(evaluateTrigger(drought, nineDry, term.end, term)).toMatchObject({
      observedValue: 1000,
      readingsUsed: 9,
      breached: false,
      coverage: { daysWithReading: 9, daysInWindow: 10 },
      skipReason: null,
    });
    const lenient = { ...drought, threshold: 1020, exit: 1000 };
    expect(evaluateTrigger(lenient, daily(term.start, [...Array(8).fill(0), 5]), term.end, term)).toMatchObject({
      observedValue: 1005,
      breached: true,
      severityPpm: 750_000,
    });
  });

  it('follows the completeness frozen into the terms, and the catalog’s 90% when the terms predate it', () => {
    const { min_coverage: _, ...issuedBeforeCompleteness } = drought;
    expect(
      evaluateTrigger(issuedBeforeCompleteness, daily(term.start, Array(8).fill(0)), term.end, term),
    ).toMatchObject({ skipReason: 'incomplete_data' });
    const halfIsEnough = { ...drought, min_coverage: 0.5 };
    expect(evaluateTrigger(halfIsEnough, daily(term.start, Array(5).fill(0)), term.end, term)).toMatchObject({
      skipReason: null,
      coverage: { daysWithReading: 5, daysInWindow: 10 },
    });
  });

  it('skips a peril with no reading at all as no_data', () => {
    expect(evaluateTrigger(drought, [], term.end, term)).toMatchObject({
      skipReason: 'no_data',
      coverage: { daysWithReading: 0, daysInWindow: 10 },
    });
  });

  it('is exact at the threshold: 0.1 mm on ten days is 1 mm, not 0.9999999999999999', () => {
    const tiny = { ...drought, threshold: 1, exit: 0.4 };
    const outcome = evaluateTrigger(tiny, daily(term.start, Array(10).fill(0.1)), term.end, term);
    expect(outcome).toMatchObject({ observedValue: 1, breached: true, severityPpm: 0 });
  });
});

describe('flood: the largest 5-day rainfall sum, any time', () => {
  const flood = triggerTermsFor('flood', term);

  it('finds the wettest 5 days', () => {
    const outcome = evaluateTrigger(flood, daily(term.start, [10, 40, 40, 40, 40, 40, 5, 0, 0, 0]), term.end, term);
    expect(outcome).toMatchObject({ observedValue: 200, readingsUsed: 10, breached: true, severityPpm: 333_333 });
  });

  it('adds only the readings present in a 5-day span: a gap can hide a flood, never make one', () => {
    const gappy = [reading('2026-04-01', 100), reading('2026-04-06', 100)];
    expect(evaluateTrigger(flood, gappy, term.end, term)).toMatchObject({ observedValue: 100, breached: false });
    const close = [reading('2026-04-01', 100), reading('2026-04-05', 50.1)];
    expect(evaluateTrigger(flood, close, term.end, term)).toMatchObject({
      observedValue: 150.1,
      breached: true,
      severityPpm: 667,
    });
  });

  it('breaches exactly at the threshold (gte) with severity 0, and caps severity at 1 beyond the exit', () => {
    expect(evaluateTrigger(flood, daily(term.start, [50.1, 49.9, 50]), term.end, term)).toMatchObject({
      observedValue: 150,
      breached: true,
      severityPpm: 0,
    });
    expect(evaluateTrigger(flood, daily(term.start, [400]), term.end, term)).toMatchObject({ severityPpm: 1_000_000 });
  });

  it('uses only the window up to as_of and within the term', () => {
    const readings = [reading('2026-03-31', 500), reading('2026-04-02', 160), reading('2026-04-11', 500)];
    expect(evaluateTrigger(flood, readings, '2026-04-01', term)).toMatchObject({
      observedValue: null,
      readingsUsed: 0,
    });
    expect(evaluateTrigger(flood, readings, '2026-05-01', term)).toMatchObject({
      windowEnd: '2026-04-10',
      observedValue: 160,
      readingsUsed: 1,
    });
  });

  it('has no aggregate before the term starts or without readings', () => {
    expect(evaluateTrigger(flood, [], term.end, term)).toMatchObject({ observedValue: null, breached: false });
    expect(evaluateTrigger(flood, daily(term.start, [200]), '2026-03-15', term)).toMatchObject({
      windowEnd: '2026-03-15',
      observedValue: null,
    });
  });
});

describe('vegetation stress: mean NDVI of the last 30 days, once 30 days of the term passed', () => {
  const season = { start: '2026-04-01', end: '2026-08-31' };
  const stress = triggerTermsFor('vegetation_stress', season);

  it('cannot breach in the first 29 days', () => {
    const low = daily(season.start, Array(29).fill(0.2));
    expect(evaluateTrigger(stress, low, '2026-04-29', season)).toMatchObject({ observedValue: 0.2, breached: false });
    expect(evaluateTrigger(stress, [...low, reading('2026-04-30', 0.2)], '2026-04-30', season)).toMatchObject({
      observedValue: 0.2,
      breached: true,
      severityPpm: 750_000,
    });
  });

  it('averages only the last 30 days, exactly', () => {
    // May 1 … 30 are the last 30 days: a green April before them does not count.
    const readings = [
      ...daily('2026-04-01', Array(30).fill(0.9)),
      ...daily('2026-05-01', [...Array(20).fill(0.3), ...Array(10).fill(0.31)]),
    ];
    expect(evaluateTrigger(stress, readings, '2026-05-30', season)).toMatchObject({
      observedValue: 0.303333,
      readingsUsed: 30,
      breached: true,
      severityPpm: 233_333,
      coverage: { daysWithReading: 30, daysInWindow: 30 },
    });
    expect(evaluateTrigger(stress, readings.slice(0, 30), '2026-05-30', season)).toMatchObject({
      observedValue: null,
      skipReason: 'no_data',
    });
  });

  it('needs 27 of the last 30 days, each missing day taken at NDVI 1', () => {
    const may = daily('2026-05-01', Array(30).fill(0.2));
    const gappy = may.filter((_, at) => at % 10 !== 0);
    expect(evaluateTrigger(stress, gappy, '2026-05-30', season)).toMatchObject({
      observedValue: 0.28,
      breached: true,
      severityPpm: 350_000,
      coverage: { daysWithReading: 27, daysInWindow: 30 },
    });
    expect(evaluateTrigger(stress, gappy.slice(1), '2026-05-30', season)).toMatchObject({
      skipReason: 'incomplete_data',
      coverage: { daysWithReading: 26, daysInWindow: 30 },
    });
  });
});

describe('storm: the highest daily wind speed, any time', () => {
  it('breaches on the strongest day', () => {
    const storm = triggerTermsFor('storm', term);
    expect(evaluateTrigger(storm, daily(term.start, [10, 32.5, 12]), term.end, term)).toMatchObject({
      observedValue: 32.5,
      readingsUsed: 3,
      breached: true,
      severityPpm: 500_000,
    });
    expect(evaluateTrigger(storm, daily(term.start, [24.99]), term.end, term)).toMatchObject({ breached: false });
  });
});
