import { actorOf } from '@cropcover/application';
import {
  type IssuedPolicy,
  liveTriggerWindow,
  policyDataSources,
  type ReadingHistory,
  utcDate,
} from '@cropcover/domain';
import { loadReadingHistory } from '@cropcover/read-store';
import type { Principal } from '@cropcover/runtime';
import type { QueryApiDeps } from '../query-api-deps';
import { readVisiblePolicy } from './visible-policy';

export interface LivePolicy {
  readonly policy: IssuedPolicy;
  readonly today: string;
  /** The readings of the window so far, from the policy's frozen sources and locations only. */
  readonly readings: ReadingHistory;
}

/** The policy, if the caller may read it, with what its live views are worked out from: today, and the
 *  readings of [term start, min(today, term end)] (none before the term begins). */
export const readLivePolicy = async (
  deps: QueryApiDeps,
  policyId: string,
  principal: Principal,
): Promise<LivePolicy> => {
  const policy = await readVisiblePolicy(deps.db, policyId, actorOf(principal));
  const today = utcDate(deps.clock.now());
  const window = liveTriggerWindow(policy, today);
  const readings =
    window === undefined
      ? {}
      : await loadReadingHistory(deps.db, { sources: policyDataSources(policy), from: window.start, to: window.end });
  return { policy, today, readings };
};
