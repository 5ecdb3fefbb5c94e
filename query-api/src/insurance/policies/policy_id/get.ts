import { actorOf } from '@cropcover/application';
import { Policy, PolicyPathParams, UNKNOWN_POLICY } from '@cropcover/contracts';
import { liveTriggerStatus, liveTriggerWindow, policyDataSources, policyView, utcDate } from '@cropcover/domain';
import { loadReadingHistory } from '@cropcover/read-store';
import { queryRoute } from '../../../query-route';
import { POLICY_READERS, readVisiblePolicy } from '../../visible-policy';

/** Endpoint 4: the policy with each peril's trigger as it stands today, computed from the field's readings
 *  so far, not from the last evaluation. */
export const getPolicy = queryRoute('GET /insurance/policies/{policy_id}', {
  summary: 'A policy with the live status of each trigger (endpoint 4)',
  roles: POLICY_READERS,
  request: { params: PolicyPathParams },
  success: { status: 200, schema: Policy, description: 'The policy' },
  problems: { 404: UNKNOWN_POLICY },
}).handle(async ({ deps, params: { policy_id }, principal }) => {
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
  return { ...policyView(policy), triggers: liveTriggerStatus(policy, readings, today) };
});
