import type { EvaluationResult, PolicyEvent } from '@cropcover/contracts';
import {
  closePolicy,
  evaluatePolicy,
  evaluationEvents,
  evaluationResult,
  isClosingDue,
  type PerilAssessor,
  type Policy,
  policyAggregate,
  policyDataSources,
  policyStream,
  type ReadReadingHistory,
  refuseUnevaluablePolicy,
  repeatsLatestConclusion,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import type { GlobalPosition } from '@cropcover/eventstore';
import { v7 as uuidv7 } from 'uuid';
import type { CommandContext } from '../command-context';
import type { CommandDeps } from '../command-deps';
import { decodeEvent } from '../decode-event';
import { handleCommand, type LoadedStream, loadStream } from '../handle-command';
import { readingHistoryFrom } from '../readings/reading-history';

export interface LiveEvaluation {
  readonly result: EvaluationResult;
  /** Where the evaluation's events landed, for read-your-writes. */
  readonly position: GlobalPosition | undefined;
  /** Whether anything was appended: a daily round that repeats the last evaluation appends nothing. */
  readonly recorded: boolean;
  /** The policy's stream as the evaluation left it. */
  readonly stream: LoadedStream<Policy>;
  /** For a daily round, what its evaluation decided, recorded or not, for the monitor's round table. */
  readonly round?: RoundEvaluation;
}

/** A daily round's evaluation as the monitor keeps it, whether the log recorded it or not. */
export interface RoundEvaluation {
  readonly evaluationId: string;
  readonly evaluatedAt: Date;
  /** The revision of the stream it was decided on: the audit replays the day on the events up to it. */
  readonly decidedOnRevision: number;
  readonly decided: readonly PolicyEvent[];
}

/** How the monitor's daily round evaluates, unlike a user's request: on readings its pass shares, and an
 *  evaluation that concludes what the policy's last one did is left unrecorded (`repeatsLatestConclusion`,
 *  SPEC §7 "What the log records"), so the stream grows with what happened, not with the calendar; the
 *  monitor keeps the day in its round table instead. A request records every evaluation it makes. */
export interface DailyRound {
  readonly readReadings: ReadReadingHistory;
  /** Works each trigger outcome out once for all the pass's policies that read the same series. */
  readonly assessor: PerilAssessor;
}

export interface LiveEvaluationOptions {
  /** The stream as the caller already loaded it, so the first attempt does not read it again. */
  readonly loaded?: LoadedStream<Policy>;
  /** Set when the request must run at most once (an Idempotency-Key): the same for every run of it, so a
   *  retry whose first run recorded its evaluation and died before answering gets that evaluation's
   *  answer instead of evaluating again (which would find the payout made and answer without it). */
  readonly evaluationId?: string;
  /** Set by the monitor's daily round. */
  readonly dailyRound?: DailyRound;
}

/** The answer of an evaluation already recorded under this id, as its own run gave it; undefined when the
 *  stream holds none. */
const recordedEvaluation = async (
  deps: CommandDeps,
  context: CommandContext,
  stream: string,
  evaluationId: string,
): Promise<LiveEvaluation | undefined> => {
  const recorded = await deps.eventStore.readStream(stream);
  const events = recorded.map((event) => decodeEvent(event) as PolicyEvent);
  const earlier = evaluationEvents(events, evaluationId);
  if (earlier.length === 0) return undefined;
  const state = events.reduce(policyAggregate.evolve, policyAggregate.initial);
  const position = recorded.at(-1)?.position;
  return {
    result: evaluationResult(visibleIssuedPolicy(state, context.actor), earlier),
    position,
    recorded: true,
    stream: { state, expected: recorded.at(-1)!.revision, position },
  };
};

/** Evaluates as of today and records it. Concurrent evaluations of one policy cannot pay twice: each
 *  appends expecting the revision it decided on, and the loser decides again on the state that already
 *  holds the winner's payout, so it pays only what is still owed (usually nothing). A policy whose
 *  closing date has come is closed first (`PolicyClosed`, whether or not the monitor got to it), and the
 *  evaluation is then refused with `policy_closed`. */
export const liveEvaluation = async (
  deps: CommandDeps,
  context: CommandContext,
  policyId: string,
  options: LiveEvaluationOptions = {},
): Promise<LiveEvaluation> => {
  const streamId = policyStream(policyId);
  if (options.evaluationId !== undefined) {
    const earlier = await recordedEvaluation(deps, context, streamId, options.evaluationId);
    if (earlier) return earlier;
  }
  const loaded = options.loaded ?? (await loadStream(deps.eventStore, streamId, policyAggregate));
  const policy = visibleIssuedPolicy(loaded.state, context.actor);
  if (isClosingDue(policy, context.now)) {
    await handleCommand(
      deps.eventStore,
      streamId,
      policyAggregate,
      (state) => closePolicy({ now: context.now }, state),
      context,
      loaded,
    );
  }
  refuseUnevaluablePolicy(policy, context.now);
  // The triggers are frozen at issue, so the readings a retry needs are the ones loaded here.
  const readings = await (options.dailyRound?.readReadings ?? readingHistoryFrom(deps.db))({
    sources: policyDataSources(policy),
    from: policy.issued.term_start,
    to: policy.issued.term_end,
  });
  // One id per request: a retry after a lost race decides again under the same evaluation and payout ids.
  const evaluationId = options.evaluationId ?? uuidv7();
  let decided: PolicyEvent[] = [];
  const outcome = await handleCommand(
    deps.eventStore,
    streamId,
    policyAggregate,
    (state) => {
      decided = evaluatePolicy(
        { actor: context.actor, evaluationId, readings, now: context.now, assessor: options.dailyRound?.assessor },
        state,
      );
      const repeat =
        options.dailyRound !== undefined && repeatsLatestConclusion(visibleIssuedPolicy(state, context.actor), decided);
      return repeat ? [] : decided;
    },
    context,
    loaded,
  );
  const stream = { state: outcome.state, expected: outcome.expected, position: outcome.position };
  return {
    result: evaluationResult(visibleIssuedPolicy(outcome.state, context.actor), decided),
    position: outcome.appended?.position,
    recorded: outcome.appended !== undefined,
    stream,
    ...(options.dailyRound === undefined
      ? {}
      : {
          round: {
            evaluationId,
            evaluatedAt: context.now,
            decidedOnRevision: Number(outcome.expected) - (outcome.appended === undefined ? 0 : decided.length),
            decided,
          },
        }),
  };
};
