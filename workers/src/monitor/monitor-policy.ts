import {
  type DailyRound,
  handleCommand,
  type LoadedStream,
  liveEvaluation,
  loadStream,
  type StreamSnapshot,
} from '@cropcover/application';
import {
  closePolicy,
  isClosingDue,
  nextMonitoringDate,
  type Policy,
  policyAggregate,
  policyStream,
  utcDate,
} from '@cropcover/domain';
import { monitorContext } from './monitor-context';
import type { PolicyMonitorDeps } from './monitor-deps';

export interface PolicyMonitoring {
  readonly evaluated: boolean;
  /** Evaluated, and the evaluation repeated the last one: nothing was appended. */
  readonly unchanged: boolean;
  readonly closed: boolean;
  /** The policy's stream as the round left it. */
  readonly stream: LoadedStream<Policy>;
}

/** One policy's daily round, decided on its stream rather than the read model: once its closing date
 *  (term end + settlement period) has come, close it, paid or not — no evaluation pays after that;
 *  before it, evaluate it when it is due (the same live evaluation a user's request makes). An
 *  evaluation moves the next monitoring date past today, so a monitor that comes to the policy after
 *  another finds nothing due; one that repeats the last evaluation appends nothing, and the monitor's own
 *  rounds table keeps the day instead. From the policy's snapshot, only the events after it are read. */
export const monitorPolicy = async (
  deps: PolicyMonitorDeps,
  policyId: string,
  now: Date,
  tickId: string,
  dailyRound: DailyRound,
  snapshot?: StreamSnapshot<Policy>,
): Promise<PolicyMonitoring> => {
  const stream = policyStream(policyId);
  const loaded = await loadStream(deps.eventStore, stream, policyAggregate, snapshot);
  const { state } = loaded;
  if (state.status === 'not_issued') throw new Error(`policy ${policyId} is in the read model but not in the log`);
  const context = monitorContext(state.issued.organization_id, now, tickId);
  if (isClosingDue(state, now)) {
    const outcome = await handleCommand(
      deps.eventStore,
      stream,
      policyAggregate,
      (current) => closePolicy({ now }, current),
      context,
      loaded,
    );
    return {
      evaluated: false,
      unchanged: false,
      closed: outcome.appended !== undefined,
      stream: { state: outcome.state, expected: outcome.expected, position: outcome.position },
    };
  }
  const due = nextMonitoringDate(state);
  if (due === undefined || due > utcDate(now))
    return { evaluated: false, unchanged: false, closed: false, stream: loaded };
  const evaluation = await liveEvaluation(deps, context, policyId, { loaded, dailyRound });
  return { evaluated: true, unchanged: !evaluation.recorded, closed: false, stream: evaluation.stream };
};
