import { handleCommand, liveEvaluation, loadStream } from '@cropcover/application';
import {
  expirePolicy,
  expiryDate,
  nextMonitoringDate,
  policyAggregate,
  policyStream,
  utcDate,
} from '@cropcover/domain';
import { monitorContext } from './monitor-context';
import type { PolicyMonitorDeps } from './monitor-deps';

export interface PolicyMonitoring {
  readonly evaluated: boolean;
  readonly expired: boolean;
}

/** One policy's daily round, decided on its stream rather than the read model: evaluate it when it is
 *  due (the same live evaluation a user's request makes), then expire it when it is still active after
 *  the settlement period. An evaluation moves the next monitoring date past today, so a monitor that
 *  comes to the policy after another finds nothing due. */
export const monitorPolicy = async (
  deps: PolicyMonitorDeps,
  policyId: string,
  now: Date,
  tickId: string,
): Promise<PolicyMonitoring> => {
  const stream = policyStream(policyId);
  const loaded = await loadStream(deps.eventStore, stream, policyAggregate);
  const { state } = loaded;
  if (state.status === 'not_issued') throw new Error(`policy ${policyId} is in the read model but not in the log`);
  const context = monitorContext(state.issued.organization_id, now, tickId);
  const today = utcDate(now);
  const due = nextMonitoringDate(state);
  const evaluated = due !== undefined && due <= today;
  if (evaluated) await liveEvaluation(deps, context, policyId, loaded);
  if (state.status !== 'active' || today < expiryDate(state)) return { evaluated, expired: false };
  // Decided on the stream as it is after the evaluation: a payout it just made keeps the policy claimed.
  const outcome = await handleCommand(
    deps.eventStore,
    stream,
    policyAggregate,
    (current) => expirePolicy({ now }, current),
    context,
  );
  return { evaluated, expired: outcome.appended !== undefined };
};
