import { actorOf } from '@cropcover/application';
import { PolicyPathParams } from '@cropcover/contracts';
import {
  type IssuedPolicy,
  liveTriggerWindow,
  policyDataSources,
  type ReadingHistory,
  utcDate,
} from '@cropcover/domain';
import { loadReadingHistory } from '@cropcover/read-store';
import { parseParams, principalOf } from '@cropcover/runtime';
import type { Request } from 'express';
import type { QueryApiDeps } from '../query-api-deps';
import { readVisiblePolicy, requirePolicyReader } from './visible-policy';

export interface LivePolicy {
  readonly policy: IssuedPolicy;
  readonly today: string;
  /** The readings of the window so far, from the policy's frozen sources and locations only. */
  readonly readings: ReadingHistory;
}

/** The policy of the path, if the caller may read it, with what its live views are worked out from:
 *  today, and the readings of [term start, min(today, term end)] (none before the term begins). */
export const readLivePolicy = async (deps: QueryApiDeps, req: Request): Promise<LivePolicy> => {
  const principal = principalOf(req);
  requirePolicyReader(principal);
  const { policy_id } = parseParams(PolicyPathParams, req);
  const policy = await readVisiblePolicy(deps.db, policy_id, actorOf(principal));
  const today = utcDate(deps.clock.now());
  const window = liveTriggerWindow(policy, today);
  const readings =
    window === undefined
      ? {}
      : await loadReadingHistory(deps.db, { sources: policyDataSources(policy), from: window.start, to: window.end });
  return { policy, today, readings };
};
