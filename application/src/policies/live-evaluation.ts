import type { EvaluationResult, PolicyEvent } from '@cropcover/contracts';
import {
  closePolicy,
  evaluatePolicy,
  evaluationResult,
  isClosingDue,
  type Policy,
  policyAggregate,
  policyDataSources,
  policyStream,
  type ReadReadingHistory,
  refuseUnevaluablePolicy,
  repeatsLatestEvaluation,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import type { GlobalPosition } from '@cropcover/eventstore';
import { v7 as uuidv7 } from 'uuid';
import type { CommandContext } from '../command-context';
import type { CommandDeps } from '../command-deps';
import { handleCommand, type LoadedStream, loadStream } from '../handle-command';
import { readingHistoryFrom } from '../readings/reading-history';

export interface LiveEvaluation {
  readonly result: EvaluationResult;
  /** Where the evaluation's events landed, for read-your-writes. */
  readonly position: GlobalPosition | undefined;
  /** Whether anything was appended: a daily round that repeats the last evaluation appends nothing. */
  readonly recorded: boolean;
}

/** How the monitor's daily round evaluates, unlike a user's request: on readings its pass shares, and an
 *  evaluation that repeats the policy's last one is left unrecorded (`repeatsLatestEvaluation`), so the
 *  stream grows with what happened, not with the calendar. A request records every evaluation it makes. */
export interface DailyRound {
  readonly readReadings: ReadReadingHistory;
}

/** Evaluates as of today and records it. Concurrent evaluations of one policy cannot pay twice: each
 *  appends expecting the revision it decided on, and the loser decides again on the state that already
 *  holds the winner's payout, so it pays only what is still owed (usually nothing). A policy whose
 *  closing date has come is closed first (`PolicyClosed`, whether or not the monitor got to it), and the
 *  evaluation is then refused with `policy_closed`. */
export const liveEvaluation = async (
  deps: CommandDeps,
  context: CommandContext,
  policyId: string,
  alreadyLoaded?: LoadedStream<Policy>,
  dailyRound?: DailyRound,
): Promise<LiveEvaluation> => {
  const stream = policyStream(policyId);
  const loaded = alreadyLoaded ?? (await loadStream(deps.eventStore, stream, policyAggregate));
  const policy = visibleIssuedPolicy(loaded.state, context.actor);
  if (isClosingDue(policy, context.now)) {
    await handleCommand(
      deps.eventStore,
      stream,
      policyAggregate,
      (state) => closePolicy({ now: context.now }, state),
      context,
      loaded,
    );
  }
  refuseUnevaluablePolicy(policy, context.now);
  // The triggers are frozen at issue, so the readings a retry needs are the ones loaded here.
  const readings = await (dailyRound?.readReadings ?? readingHistoryFrom(deps.db))({
    sources: policyDataSources(policy),
    from: policy.issued.term_start,
    to: policy.issued.term_end,
  });
  // One id per request: a retry after a lost race decides again under the same evaluation and payout ids.
  const evaluationId = uuidv7();
  let decided: PolicyEvent[] = [];
  const outcome = await handleCommand(
    deps.eventStore,
    stream,
    policyAggregate,
    (state) => {
      decided = evaluatePolicy({ actor: context.actor, evaluationId, readings, now: context.now }, state);
      const repeat =
        dailyRound !== undefined && repeatsLatestEvaluation(visibleIssuedPolicy(state, context.actor), decided);
      return repeat ? [] : decided;
    },
    context,
    loaded,
  );
  return {
    result: evaluationResult(visibleIssuedPolicy(outcome.state, context.actor), decided),
    position: outcome.appended?.position,
    recorded: outcome.appended !== undefined,
  };
};
