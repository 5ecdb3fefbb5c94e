import type { Aggregate } from '@cropcover/domain';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@cropcover/eventstore';
import { inSpan } from '@cropcover/runtime';
import type { CommandContext } from './command-context';
import { decodeEvent } from './decode-event';
import { type DomainEvent, toNewEvent } from './event-envelope';
import { inStreamTurn } from './stream-turns';

/** A stream's state and the revision to expect when appending to it. */
export interface LoadedStream<State> {
  readonly state: State;
  readonly expected: ExpectedRevision;
  /** Where the stream's last event is in the log; undefined for a stream with no events. */
  readonly position: GlobalPosition | undefined;
  /** The snapshot the load started from: a load again after a lost race reads only the events after it. */
  readonly from?: StreamSnapshot<State>;
}

export interface CommandOutcome<State> {
  /** The state after the decided events. */
  readonly state: State;
  /** The revision `state` is at: the one to expect when appending to it next. */
  readonly expected: ExpectedRevision;
  /** Where the events landed; undefined when the decision was to change nothing. */
  readonly appended: AppendResult | undefined;
  /** Where the stream's last event now is, appended or already there: read models at it show `state`.
   *  A keyed retry that finds its first run's write answers with this as its Consistency-Token. */
  readonly position: GlobalPosition | undefined;
}

/** A concurrent writer won this many times in a row: give up with a 409 rather than spin. */
const MAX_ATTEMPTS = 10;

/** Writers that lost a race retry after a short random pause, so a burst on one stream (many
 *  evaluations of one policy at once) spreads out instead of colliding again in lockstep. */
const pauseBeforeRetry = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * attempt));

/** A stream's state as of one of its events, kept so a load reads only the events after it. */
export interface StreamSnapshot<State> {
  readonly state: State;
  /** The revision of the last event `state` includes. */
  readonly revision: number;
  readonly position: GlobalPosition;
}

/** The state of a stream, replayed through the aggregate, and the revision it was read at; from a
 *  snapshot, only the events after it are read and replayed onto it. The read starts at the snapshot's own
 *  last event: a log without it has not reached the snapshot (a read store restored ahead of the log), and
 *  the whole stream is read instead. */
export const loadStream = async <State, Event extends DomainEvent>(
  eventStore: EventStore,
  streamId: string,
  aggregate: Aggregate<State, Event>,
  snapshot?: StreamSnapshot<State>,
): Promise<LoadedStream<State>> => {
  if (snapshot === undefined) {
    const recorded = await eventStore.readStream(streamId);
    return {
      state: replay(aggregate, aggregate.initial, recorded),
      expected: recorded.at(-1)?.revision ?? 'no_stream',
      position: recorded.at(-1)?.position,
    };
  }
  const recorded = await eventStore.readStream(streamId, { fromRevision: snapshot.revision });
  if (recorded[0]?.revision !== snapshot.revision) return loadStream(eventStore, streamId, aggregate);
  const last = recorded.at(-1)!;
  return {
    state: replay(aggregate, snapshot.state, recorded.slice(1)),
    expected: last.revision,
    position: last.position,
    from: snapshot,
  };
};

const replay = <State, Event extends DomainEvent>(
  aggregate: Aggregate<State, Event>,
  from: State,
  recorded: readonly RecordedEvent[],
): State =>
  // Decoded as an event of the log; the cast names which ones this aggregate's stream holds.
  recorded.reduce((current, event) => aggregate.evolve(current, decodeEvent(event) as Event), from);

/** The state of a stream without deciding anything. */
export const loadAggregate = async <State, Event extends DomainEvent>(
  eventStore: EventStore,
  streamId: string,
  aggregate: Aggregate<State, Event>,
): Promise<State> => (await loadStream(eventStore, streamId, aggregate)).state;

/** Load the stream, decide, append expecting the revision that was loaded; when another writer got
 *  there first, load again and decide again on the newer state. A caller that already loaded the
 *  stream (to find what the decision needs) passes it, so the first attempt does not read it again.
 *  Commands on one stream take turns within the process; other processes are met by the append check.
 *  One span covers it all, the wait for the stream's turn included; each append is a span inside it. */
export const handleCommand = <State, Event extends DomainEvent>(
  eventStore: EventStore,
  streamId: string,
  aggregate: Aggregate<State, Event>,
  decide: (state: State) => Event[],
  context: CommandContext,
  alreadyLoaded?: LoadedStream<State>,
): Promise<CommandOutcome<State>> =>
  inSpan('command', { attributes: { 'cropcover.stream_id': streamId } }, () =>
    inStreamTurn(streamId, () => decideAndAppend(eventStore, streamId, aggregate, decide, context, alreadyLoaded)),
  );

const decideAndAppend = async <State, Event extends DomainEvent>(
  eventStore: EventStore,
  streamId: string,
  aggregate: Aggregate<State, Event>,
  decide: (state: State) => Event[],
  context: CommandContext,
  alreadyLoaded: LoadedStream<State> | undefined,
): Promise<CommandOutcome<State>> => {
  let loaded = alreadyLoaded ?? (await loadStream(eventStore, streamId, aggregate));
  for (let attempt = 1; ; attempt += 1) {
    const events = decide(loaded.state);
    if (events.length === 0)
      return { state: loaded.state, expected: loaded.expected, appended: undefined, position: loaded.position };
    try {
      const appended = await eventStore.append(
        streamId,
        events.map((event) => toNewEvent(event, context)),
        loaded.expected,
      );
      return {
        state: events.reduce(aggregate.evolve, loaded.state),
        expected: appended.nextExpectedRevision,
        appended,
        position: appended.position,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      await pauseBeforeRetry(attempt);
      loaded = await loadStream(eventStore, streamId, aggregate, loaded.from);
    }
  }
};
