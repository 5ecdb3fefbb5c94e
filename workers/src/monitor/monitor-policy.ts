import {
  type DailyRound,
  handleCommand,
  type LoadedStream,
  liveEvaluation,
  loadStream,
  type RoundEvaluation,
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
  /** The day's evaluation, recorded or not, for the round table. */
  readonly round?: RoundEvaluation;
}

/** One policy's daily round, decided on its stream rather than the read model: once its closing date
 *  (term end + settlement period) has come, close it, paid or not — no evaluation pays after that;
 *  before it, evaluate it when it is due (the same live evaluation a user's request makes). An
 *  evaluation moves the next monitoring date past today, so a monitor that comes to the policy after
 *  another finds nothing due; one that concludes what the last one did appends nothing, and the
 *  monitor's own round tables keep the day instead (policy_monitor_rounds, policy_monitor_days).
 *
 *  From the policy's snapshot the round first decides on the snapshot alone, without reading the stream:
 *  an append expects the snapshot's revision, so the log refuses it when anything was recorded since, and
 *  the round then decides again on the stream as read (handleCommand). A round that appended nothing has
 *  had no such check, so it reads the events after the snapshot, and decides again when there were any. */
export const monitorPolicy = async (
  deps: PolicyMonitorDeps,
  policyId: string,
  now: Date,
  tickId: string,
  dailyRound: DailyRound,
  snapshot?: StreamSnapshot<Policy>,
): Promise<PolicyMonitoring> => {
  const stream = policyStream(policyId);
  if (snapshot === undefined) {
    const loaded = await loadStream(deps.eventStore, stream, policyAggregate);
    return roundOf(deps, policyId, loaded, now, tickId, dailyRound);
  }
  const onSnapshot = await roundOf(
    deps,
    policyId,
    { state: snapshot.state, expected: snapshot.revision, position: snapshot.position, from: snapshot },
    now,
    tickId,
    dailyRound,
  );
  // Appended, or read again after a refused append: the round decided on the stream's head.
  if (onSnapshot.stream.expected !== snapshot.revision) return onSnapshot;
  const loaded = await loadStream(deps.eventStore, stream, policyAggregate, snapshot);
  if (loaded.expected === snapshot.revision) return onSnapshot;
  return roundOf(deps, policyId, loaded, now, tickId, dailyRound);
};

const roundOf = async (
  deps: PolicyMonitorDeps,
  policyId: string,
  loaded: LoadedStream<Policy>,
  now: Date,
  tickId: string,
  dailyRound: DailyRound,
): Promise<PolicyMonitoring> => {
  const stream = policyStream(policyId);
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
  return {
    evaluated: true,
    unchanged: !evaluation.recorded,
    closed: false,
    stream: evaluation.stream,
    ...(evaluation.round === undefined ? {} : { round: evaluation.round }),
  };
};
