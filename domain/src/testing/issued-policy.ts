import type { Peril, PolicyDataSources, PolicyEvent } from '@cropcover/contracts';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import type { ProductTerms } from '../insurance/term-sheet/product';
import { issuePolicy } from '../policies/issue-policy';
import { evolvePolicy, type IssuedPolicy, initialPolicy, type Policy } from '../policies/policy';
import { insuredFarm, insurer } from './insured-farm';

// A policy issued as the command side issues it, for tests that evaluate, revise and close it.

export interface IssuedPolicyTerms {
  readonly policyId?: string;
  readonly perils?: Peril[];
  readonly sumInsured?: number;
  readonly currency?: string;
  readonly termStart?: string;
  readonly termEnd?: string;
  /** The data each peril reads; by default the organization's own readings of the field. */
  readonly dataSources?: PolicyDataSources;
  /** The product version issued on; the built-in `default` when absent. */
  readonly product?: ProductTerms;
}

/** The `PolicyIssued` of policy `p` on farm-1/north, issued the day before its term starts. */
export const policyIssuedEvents = ({
  policyId = 'p',
  perils = ['flood'],
  sumInsured = 250_000,
  currency = 'KES',
  termStart = '2026-04-01',
  termEnd = '2026-06-29',
  product,
  dataSources = ownFieldDataSources('org-1', 'farm-1', 'north', perils, product?.sheet),
}: IssuedPolicyTerms = {}): PolicyEvent[] =>
  issuePolicy(
    {
      actor: insurer,
      policyId,
      environment: 'sandbox',
      request: {
        farm_id: 'farm-1',
        field_id: 'north',
        perils,
        sum_insured: sumInsured,
        currency,
        term_start: termStart,
        term_end: termEnd,
      },
      farm: insuredFarm,
      dataSources,
      history: {},
      settlementPeriodDays: 30,
      now: new Date(`${termStart}T00:00:00Z`),
      product,
    },
    initialPolicy,
  );

/** The policy after `events`, which must issue it. */
export const issuedPolicyAfter = (events: readonly PolicyEvent[]): IssuedPolicy => {
  const state: Policy = events.reduce(evolvePolicy, initialPolicy);
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};
