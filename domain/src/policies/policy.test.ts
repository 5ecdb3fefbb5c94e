import { createHash } from 'node:crypto';
import { PolicyEvent, type PolicyIssueRequest } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { DEFAULT_PRODUCT, DEFAULT_SHEET, triggerTermsFor } from '../insurance/term-sheet/builtin';
import { quoteCover } from '../insurance/underwriting/quote';
import { defaultProgrammeId } from '../programmes/default-programme';
import { deciderSpec } from '../testing/decider-spec';
import { inactiveFarm, insuredFarm, insurer, otherInsurer } from '../testing/insured-farm';
import { reading } from '../testing/readings';
import { backtestPolicy, backtestTerm } from './backtest-policy';
import { closePolicy } from './close-policy';
import { evaluatePolicy } from './evaluate-policy';
import { evaluationKind } from './evaluation-kind';
import { evaluationResult } from './evaluation-result';
import { type IssuePolicy, issuePolicy } from './issue-policy';
import { lapsePolicy } from './lapse-policy';
import { asLastCheckedOn, nextMonitoringDate } from './next-monitoring-date';
import { evolvePolicy, type IssuedPolicy, initialPolicy } from './policy';
import { policyView } from './policy-view';
import { settlePayout } from './settle-payout';

const issuedAt = new Date('2026-03-25T08:00:00.000Z');
const term = { start: '2026-04-01', end: '2026-04-10' };
const request: PolicyIssueRequest = {
  farm_id: 'farm-1',
  field_id: 'north',
  perils: ['drought', 'flood', 'storm'],
  sum_insured: 10_000,
  term_start: term.start,
  term_end: term.end,
};
/** The organization's own readings of the field: what a policy naming no source reads. */
const ownFieldData = (index: 'rainfall_mm' | 'wind_speed_ms') =>
  ({ source_id: 'organization-fields:org-1', kind: 'field', index, location: 'farm-1/north' }) as const;
const issue: IssuePolicy = {
  actor: insurer,
  policyId: 'policy-1',
  environment: 'sandbox',
  request,
  farm: insuredFarm,
  dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', request.perils),
  history: {},
  settlementPeriodDays: 30,
  now: issuedAt,
};
const policyIssued: PolicyEvent = {
  type: 'PolicyIssued',
  data: {
    policy_id: 'policy-1',
    organization_id: 'org-1',
    environment: 'sandbox',
    farm_id: 'farm-1',
    field_id: 'north',
    farm_name: 'Shamba',
    field_name: 'North plot',
    field_area_ha: 2.5,
    field_location: '-1.29,36.82',
    crop_type: 'maize',
    currency: 'KES',
    sum_insured_minor: 1_000_000,
    premium_minor: 100_000,
    rate: 0.1,
    pricing: [
      { peril: 'drought', rate: 0.05, premium_minor: 50_000, method: 'base_rate', seasons_used: 0 },
      { peril: 'flood', rate: 0.03, premium_minor: 30_000, method: 'base_rate', seasons_used: 0 },
      { peril: 'storm', rate: 0.02, premium_minor: 20_000, method: 'base_rate', seasons_used: 0 },
    ],
    perils: ['drought', 'flood', 'storm'],
    triggers: [triggerTermsFor('drought', term), triggerTermsFor('flood', term), triggerTermsFor('storm', term)],
    term_start: term.start,
    term_end: term.end,
    settlement_period_days: 30,
    data_sources: {
      drought: ownFieldData('rainfall_mm'),
      flood: ownFieldData('rainfall_mm'),
      storm: ownFieldData('wind_speed_ms'),
    },
    issued_at: issuedAt.toISOString(),
    platform_version: expect.any(String) as unknown as string,
  },
};
const issuedState = (events: readonly PolicyEvent[]): IssuedPolicy => {
  const state = events.reduce(evolvePolicy, initialPolicy);
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};

describe('issuing a policy', () => {
  const spec = deciderSpec(initialPolicy, evolvePolicy, (command: IssuePolicy, state) => issuePolicy(command, state));

  it('freezes the trigger terms, money in minor units and the field enrichment', () =>
    // `policyIssued` is priced as before terms paid their exposure; this 10-day term pays 10/365 of the
    // annual rates 0.05 + 0.03 + 0.02: 0.1 × 10/365 = 1/365, × KES 10,000.00 = 2,739.73… → 2,740 cents,
    // split 5 : 3 : 2 (1,369.86 / 821.92 / 547.95 → largest remainders 1,370 / 822 / 548).
    spec
      .given([])
      .when(issue)
      .thenEvents([
        {
          type: 'PolicyIssued',
          data: {
            ...policyIssued.data,
            owner_farmer_id: 'farmer-1',
            premium_minor: 2_740,
            rate: 0.00274,
            product: DEFAULT_PRODUCT.ref,
            term_sheet: DEFAULT_SHEET,
            // No programme named: the organization's default for the policy's currency.
            programme_id: defaultProgrammeId(policyIssued.data.organization_id, 'KES'),
            pricing: [
              {
                peril: 'drought',
                rate: 0.00137,
                premium_minor: 1_370,
                method: 'base_rate',
                seasons_used: 0,
                credibility: 0,
              },
              {
                peril: 'flood',
                rate: 0.000822,
                premium_minor: 822,
                method: 'base_rate',
                seasons_used: 0,
                credibility: 0,
              },
              {
                peril: 'storm',
                rate: 0.000548,
                premium_minor: 548,
                method: 'base_rate',
                seasons_used: 0,
                credibility: 0,
              },
            ],
          },
        } as PolicyEvent,
      ]));

  it('prices exactly as the quote for the same inputs', () => {
    const quote = quoteCover({
      request: { ...request, term_start: term.start, term_end: term.end },
      farm: insuredFarm,
      today: '2026-03-25',
      dataSources: issue.dataSources,
      history: {},
    });
    const [event] = issuePolicy(issue, initialPolicy);
    expect(event?.type === 'PolicyIssued' && event.data.premium_minor).toBe(quote.premium * 100);
  });

  it('refuses a term that ends before it starts, runs over 366 days or starts over 7 days ago', () => {
    const reissue = (changes: Partial<PolicyIssueRequest>) => ({ ...issue, request: { ...request, ...changes } });
    spec
      .given([])
      .when(reissue({ term_end: term.start }))
      .thenRefuses('rejected', 'invalid_term');
    spec
      .given([])
      .when(reissue({ term_end: '2027-04-02' }))
      .thenRefuses('rejected', 'invalid_term');
    spec
      .given([])
      .when(reissue({ term_start: '2026-03-17' }))
      .thenRefuses('rejected', 'retroactive_cover');
    spec
      .given([])
      .when(reissue({ term_start: '2026-03-18', term_end: '2027-03-18' }))
      .thenEvents([expect.objectContaining({ type: 'PolicyIssued' })]);
  });

  it('refuses an inactive farm, a second issue, a caller without organization, decimals KES lacks', () => {
    spec
      .given([])
      .when({ ...issue, farm: inactiveFarm })
      .thenRefuses('rejected', 'farm_inactive');
    spec.given([policyIssued]).when(issue).thenRefuses('conflict', 'policy_exists');
    spec
      .given([])
      .when({ ...issue, actor: { ...insurer, organizationId: null } })
      .thenRefuses('forbidden', 'organization_required');
    spec
      .given([])
      .when({ ...issue, request: { ...request, sum_insured: 10.001 } })
      .thenRefuses('rejected', 'invalid_amount');
  });
});

describe('evaluating a policy', () => {
  const spec = deciderSpec(initialPolicy, evolvePolicy, evaluatePolicy);
  const stormOf = (speed: number) => ({ storm: [reading('2026-04-03', speed)] });
  const evaluate = (
    evaluationId: string,
    readings: ReadingHistory = stormOf(32.5),
    at = '2026-04-05T06:00:00.000Z',
  ) => ({
    actor: insurer,
    evaluationId,
    readings,
    now: new Date(at),
  });
  const decideOn = (events: readonly PolicyEvent[], command: ReturnType<typeof evaluate>) => {
    const decided = evaluatePolicy(command, issuedState(events));
    return [...events, ...decided];
  };
  const firstBreach = decideOn([policyIssued], evaluate('eval-1'));

  it('records evaluated perils, skips those without readings, and pays a new breach', () => {
    const events = evaluatePolicy(evaluate('eval-1'), issuedState([policyIssued]));
    expect(events.map((event) => event.type)).toEqual([
      'TriggerEvaluated',
      'TriggerBreached',
      'PayoutApproved',
      'TriggerEvaluationSkipped',
    ]);
    expect(events[0]).toEqual({
      type: 'TriggerEvaluated',
      data: {
        policy_id: 'policy-1',
        evaluation_id: 'eval-1',
        peril: 'storm',
        trigger_index: 'max_wind_speed_ms',
        as_of: '2026-04-05',
        window_start: '2026-04-01',
        window_end: '2026-04-05',
        observed_value: 32.5,
        readings_used: 1,
        coverage: { days_with_reading: 1, days_in_window: 5 },
        provenance: {
          ...ownFieldData('wind_speed_ms'),
          aggregate: 'default@0#storm',
          readings_from: '2026-04-01',
          readings_to: '2026-04-05',
          readings_used: 1,
          // Recomputed here from the one line the auditor would read back: date,value,revision.
          digest: `sha256:${createHash('sha256').update('2026-04-03,32.5,1\n').digest('hex')}`,
          // The same line with the value's label and file, both empty: it was posted, not ingested.
          files: [],
          origin_digest: `sha256:${createHash('sha256').update('2026-04-03,32.5,1,,\n').digest('hex')}`,
        },
        threshold: 25,
        comparison: 'gte',
        breached: true,
        severity: 0.5,
        amount_due_minor: 500_000,
        evaluated_at: '2026-04-05T06:00:00.000Z',
      },
    });
    expect(events[2]).toMatchObject({
      type: 'PayoutApproved',
      data: { peril: 'storm', amount_minor: 500_000, currency: 'KES', severity: 0.5 },
    });
    expect(events[3]).toMatchObject({
      data: { perils: ['drought', 'flood'], reasons: { drought: 'no_data', flood: 'no_data' } },
    });
  });

  it('skips a drought read on one day of its window as incomplete_data, and pays nothing', () => {
    const rain = [reading('2026-04-03', 0)];
    const oneDryDay = { drought: rain, flood: rain };
    spec
      .given([policyIssued])
      .when(evaluate('eval-1', oneDryDay, '2026-04-20T06:00:00.000Z'))
      .thenEvents([
        expect.objectContaining({ type: 'TriggerEvaluated', data: expect.objectContaining({ peril: 'flood' }) }),
        {
          type: 'TriggerEvaluationSkipped',
          data: {
            policy_id: 'policy-1',
            evaluation_id: 'eval-1',
            perils: ['drought', 'storm'],
            reasons: { drought: 'incomplete_data', storm: 'no_data' },
            as_of: '2026-04-10',
            window_start: '2026-04-01',
            window_end: '2026-04-10',
            evaluated_at: '2026-04-20T06:00:00.000Z',
          },
        },
      ]);
  });

  it('evaluates a drought read on 9 of its 10 days as if the missing day rained 1000 mm: no breach', () => {
    const rain = Array.from({ length: 9 }, (_, day) => reading(`2026-04-0${day + 1}`, 0));
    const nineDryDays = { drought: rain, flood: rain };
    const events = evaluatePolicy(
      evaluate('eval-1', nineDryDays, '2026-04-20T06:00:00.000Z'),
      issuedState([policyIssued]),
    );
    expect(events[0]).toMatchObject({
      type: 'TriggerEvaluated',
      data: {
        peril: 'drought',
        observed_value: 1000,
        readings_used: 9,
        coverage: { days_with_reading: 9, days_in_window: 10 },
        breached: false,
      },
    });
    expect(events.some((event) => event.type === 'PayoutApproved')).toBe(false);
  });

  it('names the policy’s organization on a breach, for its webhooks to go to', () => {
    spec
      .given([policyIssued])
      .when(evaluate('eval-1'))
      .thenEvents([
        expect.objectContaining({ type: 'TriggerEvaluated' }),
        {
          type: 'TriggerBreached',
          data: {
            policy_id: 'policy-1',
            organization_id: 'org-1',
            evaluation_id: 'eval-1',
            farm_id: 'farm-1',
            field_id: 'north',
            peril: 'storm',
            trigger_index: 'max_wind_speed_ms',
            observed_value: 32.5,
            threshold: 25,
            severity: 0.5,
            amount_due_minor: 500_000,
            as_of: '2026-04-05',
            payout: { payout_id: expect.any(String), amount_minor: 500_000, currency: 'KES' },
            breached_at: '2026-04-05T06:00:00.000Z',
          },
        },
        expect.objectContaining({ type: 'PayoutApproved' }),
        expect.objectContaining({ type: 'TriggerEvaluationSkipped' }),
      ]);
  });

  it('names the policy’s organization, not the admin’s, when an admin of another organization evaluates', () => {
    const admin = { subject: 'platform-admin', organizationId: 'org-9', isAdmin: true };
    spec
      .given([policyIssued])
      .when({ ...evaluate('eval-1'), actor: admin })
      .thenEvents([
        expect.objectContaining({ type: 'TriggerEvaluated' }),
        expect.objectContaining({
          type: 'TriggerBreached',
          data: expect.objectContaining({ organization_id: 'org-1' }),
        }),
        expect.objectContaining({ type: 'PayoutApproved' }),
        expect.objectContaining({ type: 'TriggerEvaluationSkipped' }),
      ]);
  });

  it('turns the policy claimed and answers with what this evaluation paid', () => {
    const after = issuedState(firstBreach);
    expect(after.status).toBe('claimed');
    expect(evaluationResult(after, firstBreach.slice(1))).toEqual({
      policy_id: 'policy-1',
      as_of: '2026-04-05',
      events: [
        {
          peril: 'storm',
          index: 'max_wind_speed_ms',
          observed_value: 32.5,
          threshold: 25,
          breached: true,
          severity: 0.5,
          coverage: { days_with_reading: 1, days_in_window: 5 },
        },
      ],
      total_payout: 5000,
      currency: 'KES',
      is_backtest: false,
      payout_count: 1,
      policy_status: 'claimed',
      triggers_evaluated: 1,
      triggers_total: 3,
      skipped_perils: ['drought', 'flood'],
      skipped_reasons: { drought: 'no_data', flood: 'no_data' },
    });
  });

  it('pays nothing for an unchanged breach, and only the difference for a deeper one', () => {
    spec
      .given(firstBreach)
      .when(evaluate('eval-2'))
      .thenEvents([
        expect.objectContaining({ type: 'TriggerEvaluated' }),
        expect.objectContaining({ type: 'TriggerEvaluationSkipped' }),
      ]);
    const deeper = evaluatePolicy(evaluate('eval-3', stormOf(36.25)), issuedState(firstBreach));
    expect(deeper.filter((event) => event.type === 'PayoutApproved')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ amount_minor: 250_000, severity: 0.75 }) }),
    ]);
  });

  it('never pays more than the sum insured across perils', () => {
    const rain = [reading('2026-04-03', 400)];
    const readings = { storm: [reading('2026-04-03', 45)], drought: rain, flood: rain };
    const events = evaluatePolicy(evaluate('eval-1', readings), issuedState([policyIssued]));
    const paid = events.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []));
    expect(paid).toEqual([1_000_000]);
    expect(events.find((event) => event.type === 'TriggerBreached' && event.data.peril === 'storm')).toMatchObject({
      data: { payout: null },
    });
  });

  it('evaluates as of term end once the term is over, so drought can breach', () => {
    const rain = Array.from({ length: 10 }, (_, day) => reading(`2026-04-${String(day + 1).padStart(2, '0')}`, 1));
    const dry = { drought: rain, flood: rain };
    const events = evaluatePolicy(evaluate('eval-9', dry, '2026-04-20T06:00:00.000Z'), issuedState([policyIssued]));
    expect(events[0]).toMatchObject({
      type: 'TriggerEvaluated',
      data: { peril: 'drought', as_of: '2026-04-10', observed_value: 10, breached: true, severity: 0.833333 },
    });
    expect(events.find((event) => event.type === 'PayoutApproved')).toMatchObject({ data: { amount_minor: 833_333 } });
  });

  it('refuses a lapsed policy, a closed one (an expiry recorded before closing reads as closed), and hides it from another organization', () => {
    const lapsed: PolicyEvent = {
      type: 'PolicyLapsed',
      data: { policy_id: 'policy-1', reason: 'unpaid', lapsed_at: '2026-03-26T00:00:00.000Z' },
    };
    const expired: PolicyEvent = {
      type: 'PolicyExpired',
      data: { policy_id: 'policy-1', expired_at: '2026-05-10T00:00:00.000Z' },
    };
    spec.given([policyIssued, lapsed]).when(evaluate('e')).thenRefuses('rejected', 'policy_not_evaluable');
    spec.given([policyIssued, expired]).when(evaluate('e')).thenRefuses('rejected', 'policy_closed');
    spec
      .given([policyIssued])
      .when({ ...evaluate('e'), actor: otherInsurer })
      .thenRefuses('not_found', 'not_found');
    spec.given([]).when(evaluate('e')).thenRefuses('not_found', 'not_found');
  });

  it('decides events that match the published event schemas', () => {
    const [issuedEvent] = issuePolicy(issue, initialPolicy);
    for (const event of [issuedEvent, ...firstBreach.slice(1)]) expect(PolicyEvent.parse(event)).toEqual(event);
  });

  it('names a payout after its evaluation and peril, so a retried decision names the same payout', () => {
    const again = evaluatePolicy(evaluate('eval-1'), issuedState([policyIssued]));
    expect(again).toEqual(firstBreach.slice(1));
  });
});

describe('backtesting a policy', () => {
  const readings = { storm: [reading('2025-04-03', 40), reading('2026-04-03', 30)] };
  const backtest = (asOf: string) => ({ actor: insurer, asOf, readings, now: new Date('2026-04-20T06:00:00.000Z') });

  it('tells live evaluations from backtests and refuses the future', () => {
    expect(evaluationKind(undefined, '2026-04-20')).toBe('live');
    expect(evaluationKind('2026-04-20', '2026-04-20')).toBe('live');
    expect(evaluationKind('2015-04-20', '2026-04-20')).toBe('backtest');
    expect(() => evaluationKind('2026-04-21', '2026-04-20')).toThrow(
      expect.objectContaining({ code: 'as_of_in_future' }),
    );
  });

  it('computes what the cover shows and would pay as of a past date, storing nothing', () => {
    expect(backtestPolicy(backtest('2026-04-05'), issuedState([policyIssued]))).toEqual({
      policy_id: 'policy-1',
      as_of: '2026-04-05',
      events: [
        {
          peril: 'storm',
          index: 'max_wind_speed_ms',
          observed_value: 30,
          threshold: 25,
          breached: true,
          severity: 0.333333,
          coverage: { days_with_reading: 1, days_in_window: 5 },
        },
      ],
      total_payout: 3333.33,
      currency: 'KES',
      is_backtest: true,
      policy_status: 'active',
      triggers_evaluated: 1,
      triggers_total: 3,
      skipped_perils: ['drought', 'flood'],
      skipped_reasons: { drought: 'no_data', flood: 'no_data' },
    });
  });

  it('shifts the cover back by whole years before term start', () => {
    const policy = issuedState([policyIssued]);
    expect(backtestTerm(policy, '2025-04-05')).toEqual({ start: '2025-04-01', end: '2025-04-10' });
    expect(backtestTerm(policy, '2025-03-31')).toEqual({ start: '2024-04-01', end: '2024-04-10' });
    expect(backtestTerm(policy, '2015-06-01')).toEqual({ start: '2015-04-01', end: '2015-04-10' });
    expect(backtestPolicy(backtest('2025-04-05'), policy)).toMatchObject({
      total_payout: 10_000,
      events: [{ severity: 1 }],
    });
  });

  it('works on a lapsed policy and refuses as_of today', () => {
    const lapsed: PolicyEvent = {
      type: 'PolicyLapsed',
      data: { policy_id: 'policy-1', reason: 'unpaid', lapsed_at: '2026-03-26T00:00:00.000Z' },
    };
    expect(backtestPolicy(backtest('2026-04-05'), issuedState([policyIssued, lapsed]))).toMatchObject({
      policy_status: 'lapsed',
    });
    expect(() => backtestPolicy(backtest('2026-04-20'), issuedState([policyIssued]))).toThrow(
      expect.objectContaining({ code: 'not_a_backtest' }),
    );
  });
});

describe('lapsing, settling and expiring', () => {
  const breach = evaluatePolicy(
    {
      actor: insurer,
      evaluationId: 'eval-1',
      readings: { storm: [reading('2026-04-03', 40)] },
      now: new Date('2026-04-05T06:00:00Z'),
    },
    issuedState([policyIssued]),
  );
  const claimed = [policyIssued, ...breach];
  const payoutId = breach.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.payout_id] : []))[0]!;
  const now = new Date('2026-04-06T00:00:00.000Z');

  it('lapses an active policy without payouts, and nothing else', () => {
    const spec = deciderSpec(initialPolicy, evolvePolicy, lapsePolicy);
    spec
      .given([policyIssued])
      .when({ actor: insurer, reason: 'premium not paid', now })
      .thenEvents([
        {
          type: 'PolicyLapsed',
          data: { policy_id: 'policy-1', reason: 'premium not paid', lapsed_at: now.toISOString() },
        },
      ]);
    spec.given(claimed).when({ actor: insurer, reason: 'late', now }).thenRefuses('rejected', 'policy_not_lapsable');
  });

  it('settles an approved payout once', () => {
    const spec = deciderSpec(initialPolicy, evolvePolicy, settlePayout);
    const settled: PolicyEvent = {
      type: 'PayoutSettled',
      data: { policy_id: 'policy-1', payout_id: payoutId, settled_at: now.toISOString() },
    };
    spec.given(claimed).when({ actor: insurer, payoutId, now }).thenEvents([settled]);
    spec
      .given([...claimed, settled])
      .when({ actor: insurer, payoutId, now })
      .thenEvents([]);
    spec.given(claimed).when({ actor: insurer, payoutId: 'nope', now }).thenRefuses('not_found', 'not_found');
    spec.given(claimed).when({ actor: otherInsurer, payoutId, now }).thenRefuses('not_found', 'not_found');
  });

  it('closes every policy at term end plus the settlement period: unpaid as expired, claimed as claimed', () => {
    const spec = deciderSpec(initialPolicy, evolvePolicy, closePolicy);
    const due = new Date('2026-05-10T01:00:00.000Z');
    const closed = (status: 'expired' | 'claimed'): PolicyEvent => ({
      type: 'PolicyClosed',
      data: { policy_id: 'policy-1', status, closed_at: due.toISOString() },
    });
    spec
      .given([policyIssued])
      .when({ now: due })
      .thenEvents([closed('expired')]);
    spec
      .given(claimed)
      .when({ now: due })
      .thenEvents([closed('claimed')]);
    spec
      .given([policyIssued])
      .when({ now: new Date('2026-05-09T23:00:00Z') })
      .thenRefuses('rejected', 'settlement_period_open');
    spec
      .given([...claimed, closed('claimed')])
      .when({ now: due })
      .thenEvents([]);
    expect(issuedState([...claimed, closed('claimed')])).toMatchObject({
      status: 'claimed',
      closedAt: due.toISOString(),
    });
    expect(issuedState([policyIssued, closed('expired')])).toMatchObject({
      status: 'expired',
      closedAt: due.toISOString(),
    });
  });

  it('reads an expiry recorded before PolicyClosed as closed and expired, and closes it no more', () => {
    const expired: PolicyEvent = {
      type: 'PolicyExpired',
      data: { policy_id: 'policy-1', expired_at: '2026-05-10T00:00:00.000Z' },
    };
    expect(issuedState([policyIssued, expired])).toMatchObject({
      status: 'expired',
      closedAt: '2026-05-10T00:00:00.000Z',
    });
    deciderSpec(initialPolicy, evolvePolicy, closePolicy)
      .given([policyIssued, expired])
      .when({ now: new Date('2026-06-01T00:00:00Z') })
      .thenEvents([]);
  });
});

describe('monitoring and the policy view', () => {
  it('monitors from the day after issue (not before term start), then daily, until the settlement period ends', () => {
    const fresh = issuedState([policyIssued]);
    expect(nextMonitoringDate(fresh)).toBe('2026-04-01');
    expect(
      nextMonitoringDate(issuedState([{ ...policyIssued, data: { ...policyIssued.data, term_start: '2026-03-20' } }])),
    ).toBe('2026-03-26');
    const evaluated = [
      policyIssued,
      ...evaluatePolicy(
        { actor: insurer, evaluationId: 'e', readings: {}, now: new Date('2026-04-04T05:00:00Z') },
        fresh,
      ),
    ];
    expect(nextMonitoringDate(issuedState(evaluated))).toBe('2026-04-05');
    expect(nextMonitoringDate(issuedState(evaluated), 7)).toBe('2026-04-11');
    const late = [
      policyIssued,
      ...evaluatePolicy(
        { actor: insurer, evaluationId: 'e', readings: {}, now: new Date('2026-05-09T05:00:00Z') },
        fresh,
      ),
    ];
    expect(nextMonitoringDate(issuedState(late))).toBeUndefined();
    const lapsed: PolicyEvent = {
      type: 'PolicyLapsed',
      data: { policy_id: 'policy-1', reason: 'x', lapsed_at: '2026-03-26T00:00:00Z' },
    };
    expect(nextMonitoringDate(issuedState([policyIssued, lapsed]))).toBeUndefined();
  });

  it('counts the next day from the monitor’s last round when its repeats appended nothing', () => {
    const evaluated = issuedState([
      policyIssued,
      ...evaluatePolicy(
        { actor: insurer, evaluationId: 'e', readings: {}, now: new Date('2026-04-04T05:00:00Z') },
        issuedState([policyIssued]),
      ),
    ]);
    expect(nextMonitoringDate(asLastCheckedOn(evaluated, '2026-04-06'))).toBe('2026-04-07');
    expect(nextMonitoringDate(asLastCheckedOn(evaluated, '2026-04-02'))).toBe('2026-04-05');
    expect(nextMonitoringDate(asLastCheckedOn(evaluated, null))).toBe('2026-04-05');
  });

  it('shows money in major units and each trigger’s current reading', () => {
    const events = [
      policyIssued,
      ...evaluatePolicy(
        {
          actor: insurer,
          evaluationId: 'e',
          readings: { storm: [reading('2026-04-02', 12)] },
          now: new Date('2026-04-04T05:00:00Z'),
        },
        issuedState([policyIssued]),
      ),
    ];
    const view = policyView(issuedState(events));
    expect(view).toMatchObject({
      sum_insured: 10_000,
      premium: 1000,
      currency: 'KES',
      status: 'active',
      farm_name: 'Shamba',
      field_location: '-1.29,36.82',
      next_monitoring_date: '2026-04-05',
    });
    // Every trigger shows the data it reads: here the policy organization's own readings of the field.
    expect(view.triggers).toEqual([
      {
        peril: 'drought',
        trigger_index: 'cumulative_rainfall_mm',
        current_index_reading: null,
        trigger_threshold: 20,
        comparison: 'lte',
        data_available: false,
        skipped_reason: 'no_data',
        data_source: ownFieldData('rainfall_mm'),
      },
      {
        peril: 'flood',
        trigger_index: 'max_5day_rainfall_mm',
        current_index_reading: null,
        trigger_threshold: 150,
        comparison: 'gte',
        data_available: false,
        skipped_reason: 'no_data',
        data_source: ownFieldData('rainfall_mm'),
      },
      {
        peril: 'storm',
        trigger_index: 'max_wind_speed_ms',
        current_index_reading: 12,
        trigger_threshold: 25,
        comparison: 'gte',
        data_available: true,
        coverage: { days_with_reading: 1, days_in_window: 4 },
        data_source: ownFieldData('wind_speed_ms'),
      },
    ]);
  });

  it('shows why the last evaluation skipped a peril, and reads an old skip without a reason as no_data', () => {
    const skip = (reasons?: { drought: 'incomplete_data' }): PolicyEvent => ({
      type: 'TriggerEvaluationSkipped',
      data: {
        policy_id: 'policy-1',
        evaluation_id: 'e',
        perils: ['drought'],
        ...(reasons === undefined ? {} : { reasons }),
        as_of: '2026-04-04',
        window_start: '2026-04-01',
        window_end: '2026-04-04',
        evaluated_at: '2026-04-04T05:00:00.000Z',
      },
    });
    const droughtOf = (events: PolicyEvent[]) => policyView(issuedState(events)).triggers[0];
    expect(droughtOf([policyIssued, skip({ drought: 'incomplete_data' })])).toMatchObject({
      current_index_reading: null,
      data_available: true,
      skipped_reason: 'incomplete_data',
    });
    expect(droughtOf([policyIssued, skip()])).toMatchObject({ data_available: false, skipped_reason: 'no_data' });
  });
});
