import type { PolicyIssueRequest } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { quoteCover } from '../insurance/underwriting/quote';
import { deciderSpec } from '../testing/decider-spec';
import { insuredFarm, insurer } from '../testing/insured-farm';
import { dailyReadings, reading } from '../testing/readings';
import { type IssuePolicy, issuePolicy } from './issue-policy';
import { evolvePolicy, initialPolicy } from './policy';

// SPEC §7 Known loss: no one buys cover on a loss already in the data.

const today = '2026-03-25';
const request: PolicyIssueRequest = {
  farm_id: 'farm-1',
  field_id: 'north',
  perils: ['flood', 'storm'],
  sum_insured: 10_000,
  // Seven days back, the most cover may be backdated.
  term_start: '2026-03-18',
  term_end: '2026-09-30',
};
const issue = (history: ReadingHistory, changes: Partial<PolicyIssueRequest> = {}): IssuePolicy => ({
  actor: insurer,
  policyId: 'policy-1',
  environment: 'sandbox',
  request: { ...request, ...changes },
  farm: insuredFarm,
  dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', request.perils),
  history,
  settlementPeriodDays: 30,
  now: new Date(`${today}T08:00:00.000Z`),
});
const quote = (history: ReadingHistory) =>
  quoteCover({
    request: { ...request, perils: [...request.perils] },
    farm: insuredFarm,
    today,
    dataSources: issue({}).dataSources,
    history,
  });
/** Calm wind every day of the term so far, and 45 m/s three days ago: a storm of severity 1. */
const storm: ReadingHistory = {
  storm: [...dailyReadings('2026-03-18', [5, 6, 7, 5]), reading('2026-03-22', 45), reading('2026-03-23', 8)],
};

describe('known loss', () => {
  const spec = deciderSpec(initialPolicy, evolvePolicy, (command: IssuePolicy, state) => issuePolicy(command, state));

  it('refuses to issue cover on a storm already in the term’s data, and records nothing', () => {
    // Reproduces issue 10 (3): wind 45 m/s three days ago, cover starting seven days ago, issued at the
    // base premium; its first evaluation paid in full.
    spec.given([]).when(issue(storm)).thenRefuses('rejected', 'known_loss');
    expect(() => issuePolicy(issue(storm), initialPolicy)).toThrow(
      'storm is already breached on the data available: max_wind_speed_ms 45 ≥ threshold 25 over 2026-03-18 to 2026-03-25',
    );
  });

  it('refuses the quote for the same cover', () => {
    expect(() => quote(storm)).toThrow(expect.objectContaining({ reason: 'rejected', code: 'known_loss' }));
  });

  it('refuses a breach exactly at the threshold too: any deeper reading would pay', () => {
    spec
      .given([])
      .when(issue({ flood: dailyReadings('2026-03-19', [30, 30, 30, 30, 30]) }))
      .thenRefuses('rejected', 'known_loss');
  });

  it('issues cover when the storm fell before the term or the data shows no breach yet', () => {
    // The same 45 m/s, but before term start; and a term starting tomorrow, whose window is still empty.
    const before = { storm: [reading('2026-03-17', 45), ...dailyReadings('2026-03-18', [5, 6, 7])] };
    spec
      .given([])
      .when(issue(before))
      .thenEvents([expect.objectContaining({ type: 'PolicyIssued' })]);
    spec
      .given([])
      .when(issue(storm, { term_start: '2026-03-26' }))
      .thenEvents([expect.objectContaining({ type: 'PolicyIssued' })]);
  });

  it('does not read a drought into a window still open: it can only be declared at term end', () => {
    // Not a drop of rain in the first week of a half-year term: no drought can be declared yet.
    const dry = { drought: dailyReadings('2026-03-18', [0, 0, 0, 0, 0, 0, 0, 0]) };
    spec
      .given([])
      .when({
        ...issue(dry, { perils: ['drought'] }),
        dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', ['drought']),
      })
      .thenEvents([expect.objectContaining({ type: 'PolicyIssued' })]);
  });
});
