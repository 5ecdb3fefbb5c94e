import type { Policy } from '@cropcover/contracts';
import { liveTriggerStatus, policyView } from '@cropcover/domain';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../query-api-deps';
import { readLivePolicy } from '../../live-policy';

/** GET /insurance/policies/{policy_id} — endpoint 4: the policy with each peril's trigger as it stands
 *  today, computed from the field's readings so far, not from the last evaluation. */
export const getPolicy =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const { policy, today, readings } = await readLivePolicy(deps, req);
    const view: Policy = { ...policyView(policy), triggers: liveTriggerStatus(policy, readings, today) };
    res.json(view);
  };
