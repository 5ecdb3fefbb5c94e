import { actorOf } from '@cropcover/application';
import { type Policy, PolicyPathParams } from '@cropcover/contracts';
import { liveTriggerStatus, liveTriggerWindow, policyDataSources, policyView, utcDate } from '@cropcover/domain';
import { loadReadingHistory } from '@cropcover/read-store';
import { parseParams, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../query-api-deps';
import { readVisiblePolicy, requirePolicyReader } from '../../visible-policy';

/** GET /insurance/policies/{policy_id} — endpoint 4: the policy with each peril's trigger as it stands
 *  today, computed from the field's readings so far, not from the last evaluation. */
export const getPolicy =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const principal = principalOf(req);
    requirePolicyReader(principal);
    const { policy_id } = parseParams(PolicyPathParams, req);
    const policy = await readVisiblePolicy(deps.db, policy_id, actorOf(principal));
    const today = utcDate(deps.clock.now());
    const window = liveTriggerWindow(policy, today);
    const readings =
      window === undefined
        ? {}
        : await loadReadingHistory(deps.db, {
            sources: policyDataSources(policy),
            from: window.start,
            to: window.end,
          });
    const view: Policy = { ...policyView(policy), triggers: liveTriggerStatus(policy, readings, today) };
    res.json(view);
  };
