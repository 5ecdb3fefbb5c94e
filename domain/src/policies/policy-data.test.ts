import { createHash } from 'node:crypto';
import type { PolicyEvent, PolicyIssued } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { evolveFarm, initialFarm } from '../farms/farm';
import { evolveIndexSource, initialIndexSource } from '../index-sources/index-source';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { ownFieldData } from '../insurance/index-data/peril-data';
import { resolveDataSources } from '../insurance/index-data/policy-data-sources';
import { deciderSpec } from '../testing/decider-spec';
import { gridSourceRegistered } from '../testing/index-sources';
import { insuredFarmEvents, insurer } from '../testing/insured-farm';
import { dailyReadings, reading } from '../testing/readings';
import { type EvaluatePolicy, evaluatePolicy, policyDataSources } from './evaluate-policy';
import { issuePolicy } from './issue-policy';
import { evolvePolicy, initialPolicy } from './policy';

// SPEC §7 "A policy names its data" and "Provenance": a peril reads only the source and location frozen
// at issue, and every evaluation records exactly which readings it used.

const term = { start: '2026-04-01', end: '2026-04-10' };
const farm = insuredFarmEvents().reduce(evolveFarm, initialFarm);
const grid = evolveIndexSource(initialIndexSource, gridSourceRegistered);

/** The cell of the 0.05° grid holding the field at (−1.29, 36.82): its south-west corner. */
const gridCell = { source_id: 'src-grid', kind: 'grid', index: 'rainfall_mm', location: '-1.3,36.8' } as const;
const ownRainfall = {
  source_id: 'organization-fields:org-1',
  kind: 'field',
  index: 'rainfall_mm',
  location: 'farm-1/north',
} as const;

/** What an auditor recomputes: sha256 over `date,value,revision\n` of each reading used, in date order. */
const digestOf = (lines: readonly string[]): string =>
  `sha256:${createHash('sha256')
    .update(lines.map((line) => `${line}\n`).join(''))
    .digest('hex')}`;

/** Drought reads the grid cell the request named, flood the organization's own field readings. */
const [gridPolicyIssued] = issuePolicy(
  {
    actor: insurer,
    policyId: 'policy-1',
    environment: 'sandbox',
    request: {
      farm_id: 'farm-1',
      field_id: 'north',
      perils: ['drought', 'flood'],
      sum_insured: 10_000,
      term_start: term.start,
      term_end: term.end,
      data_sources: { drought: 'src-grid' },
    },
    farm,
    dataSources: resolveDataSources({
      organizationId: 'org-1',
      farm,
      fieldId: 'north',
      perils: ['drought', 'flood'],
      named: { drought: 'src-grid' },
      sources: new Map([['src-grid', grid]]),
    }),
    history: {},
    settlementPeriodDays: 30,
    now: new Date('2026-03-25T08:00:00.000Z'),
  },
  initialPolicy,
) as [PolicyEvent];

// 1 mm a day in the cell: a drought (10 mm ≤ 20 mm). 5 mm a day on the field: no drought, no flood.
const cellRain = dailyReadings(term.start, Array(10).fill(1));
const fieldRain = dailyReadings(term.start, Array(10).fill(5));
const cellLines = cellRain.map(({ date }) => `${date},1,1`);
// The same cell's rain as ingested from a file (INDEX-DATA §4): each value names it.
const CHIRPS_FILE = { sha256: 'c0ffee'.repeat(10).slice(0, 64), label: 'final' };
const cellRainFromFile = cellRain.map((one) => ({ ...one, files: [CHIRPS_FILE] }));

const evaluate = (drought: readonly IndexObservation[], flood = fieldRain): EvaluatePolicy => ({
  actor: insurer,
  evaluationId: 'eval-1',
  readings: { drought, flood },
  now: new Date('2026-04-20T06:00:00.000Z'),
});

const spec = deciderSpec(initialPolicy, evolvePolicy, evaluatePolicy);

const droughtProvenance = (command: EvaluatePolicy) => {
  const evaluated = evaluatePolicy(command, [gridPolicyIssued].reduce(evolvePolicy, initialPolicy)).find(
    (event) => event.type === 'TriggerEvaluated' && event.data.peril === 'drought',
  );
  if (evaluated?.type !== 'TriggerEvaluated') throw new Error('drought was not evaluated');
  return evaluated.data.provenance;
};

describe('a policy whose drought reads a grid source', () => {
  it('freezes the cell it resolved for drought and the own field readings for flood', () => {
    expect(gridPolicyIssued).toMatchObject({
      type: 'PolicyIssued',
      data: { data_sources: { drought: gridCell, flood: ownRainfall } },
    });
    expect(policyDataSources([gridPolicyIssued].reduce(evolvePolicy, initialPolicy))).toEqual({
      drought: gridCell,
      flood: ownRainfall,
    });
  });

  it('evaluates each peril from its own readings only, and records where they came from', () =>
    spec
      .given([gridPolicyIssued])
      .when(evaluate(cellRainFromFile))
      .thenEvents([
        {
          type: 'TriggerEvaluated',
          data: {
            policy_id: 'policy-1',
            evaluation_id: 'eval-1',
            peril: 'drought',
            trigger_index: 'cumulative_rainfall_mm',
            as_of: '2026-04-10',
            window_start: '2026-04-01',
            window_end: '2026-04-10',
            observed_value: 10,
            readings_used: 10,
            coverage: { days_with_reading: 10, days_in_window: 10 },
            provenance: {
              ...gridCell,
              aggregate: 'default@1#drought',
              readings_from: '2026-04-01',
              readings_to: '2026-04-10',
              readings_used: 10,
              digest: digestOf(cellLines),
              files: [{ ...CHIRPS_FILE, values: 10 }],
              origin_digest: digestOf(cellLines.map((line) => `${line},final,${CHIRPS_FILE.sha256}`)),
            },
            threshold: 20,
            comparison: 'lte',
            breached: true,
            severity: 0.833333,
            amount_due_minor: 833_333,
            evaluated_at: '2026-04-20T06:00:00.000Z',
          },
        },
        expect.objectContaining({ type: 'TriggerBreached', data: expect.objectContaining({ peril: 'drought' }) }),
        expect.objectContaining({
          type: 'PayoutApproved',
          data: expect.objectContaining({ peril: 'drought', amount_minor: 833_333 }),
        }),
        {
          type: 'TriggerEvaluated',
          data: expect.objectContaining({
            peril: 'flood',
            observed_value: 25,
            breached: false,
            provenance: {
              ...ownRainfall,
              aggregate: 'default@1#flood',
              readings_from: '2026-04-01',
              readings_to: '2026-04-10',
              readings_used: 10,
              digest: digestOf(fieldRain.map(({ date }) => `${date},5,1`)),
              files: [],
              origin_digest: digestOf(fieldRain.map(({ date }) => `${date},5,1,,`)),
            },
          }),
        },
      ]));

  it('is not moved by readings handed to another peril: the field’s rain is no drought in the cell', () =>
    spec
      .given([gridPolicyIssued])
      .when(evaluate(fieldRain, cellRain))
      .thenEvents([
        {
          type: 'TriggerEvaluated',
          data: expect.objectContaining({ peril: 'drought', observed_value: 50, breached: false }),
        },
        {
          type: 'TriggerEvaluated',
          data: expect.objectContaining({ peril: 'flood', observed_value: 5, breached: false }),
        },
      ]));

  it('digests exactly the readings of the window: the day before term start and after it change nothing', () => {
    const around = [reading('2026-03-31', 0), ...cellRain, reading('2026-04-11', 0)];
    expect(droughtProvenance(evaluate(around))).toEqual(droughtProvenance(evaluate(cellRain)));
    expect(droughtProvenance(evaluate(around))?.digest).toBe(digestOf(cellLines));
  });

  it('digests a revised reading differently: its new value and its revision are what was used', () => {
    const revised = cellRain.map((day) => (day.date === '2026-04-05' ? reading(day.date, 1.5, 2) : day));
    const revisedLines = cellLines.map((line) => (line.startsWith('2026-04-05') ? '2026-04-05,1.5,2' : line));
    expect(droughtProvenance(evaluate(revised))).toMatchObject({ readings_used: 10, digest: digestOf(revisedLines) });
    expect(digestOf(revisedLines)).not.toBe(digestOf(cellLines));
    // Re-recorded at the same value, the reading is still another revision, and the digest says so.
    const reRecorded = cellRain.map((day) => (day.date === '2026-04-05' ? reading(day.date, 1, 2) : day));
    expect(droughtProvenance(evaluate(reRecorded))?.digest).not.toBe(digestOf(cellLines));
  });
});

describe('a policy issued before sources (PolicyIssued without data_sources)', () => {
  const [issued] = issuePolicy(
    {
      actor: insurer,
      policyId: 'policy-1',
      environment: 'sandbox',
      request: {
        farm_id: 'farm-1',
        field_id: 'north',
        perils: ['drought', 'vegetation_stress', 'storm'],
        sum_insured: 10_000,
        term_start: term.start,
        term_end: term.end,
      },
      farm,
      dataSources: {
        drought: ownRainfall,
        vegetation_stress: { ...ownRainfall, index: 'ndvi' },
        storm: { ...ownRainfall, index: 'wind_speed_ms' },
      },
      history: {},
      settlementPeriodDays: 30,
      now: new Date('2026-03-25T08:00:00.000Z'),
    },
    initialPolicy,
  ) as [{ type: 'PolicyIssued'; data: PolicyIssued }];
  const { data_sources: _, ...before } = issued.data;
  const oldIssued: PolicyEvent = { type: 'PolicyIssued', data: before };

  it('reads each peril from its own organization’s readings of the field', () => {
    expect(oldIssued.data).not.toHaveProperty('data_sources');
    expect(policyDataSources([oldIssued].reduce(evolvePolicy, initialPolicy))).toEqual({
      drought: ownFieldData('org-1', 'farm-1', 'north', 'rainfall_mm'),
      vegetation_stress: ownFieldData('org-1', 'farm-1', 'north', 'ndvi'),
      storm: ownFieldData('org-1', 'farm-1', 'north', 'wind_speed_ms'),
    });
    expect(ownFieldData('org-1', 'farm-1', 'north', 'ndvi')).toEqual({ ...ownRainfall, index: 'ndvi' });
  });

  it('records that data as the provenance of its evaluations', () =>
    spec
      .given([oldIssued])
      .when({ ...evaluate([]), readings: { storm: [reading('2026-04-03', 32.5)] } })
      .thenEvents([
        {
          type: 'TriggerEvaluated',
          data: expect.objectContaining({
            peril: 'storm',
            provenance: {
              ...ownRainfall,
              index: 'wind_speed_ms',
              aggregate: 'default@1#storm',
              readings_from: '2026-04-01',
              readings_to: '2026-04-10',
              readings_used: 1,
              digest: digestOf(['2026-04-03,32.5,1']),
              files: [],
              origin_digest: digestOf(['2026-04-03,32.5,1,,']),
            },
          }),
        },
        expect.objectContaining({ type: 'TriggerBreached' }),
        expect.objectContaining({ type: 'PayoutApproved' }),
        expect.objectContaining({ type: 'TriggerEvaluationSkipped' }),
      ]));
});
