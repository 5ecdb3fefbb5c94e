import {
  ANY,
  type AppendStreamState,
  BACKWARDS,
  END,
  excludeSystemEvents,
  KurrentDBClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../port';
import { comparePositions, isAtOrAfter } from '../position';
import type { StoredLogEvent } from '../stored-log-event';
import { DEFAULT_BATCH_SIZE, DEFAULT_RETRY_DELAY_MS, reportToConsole } from '../subscription-defaults';
import { createSubscriptionSet } from '../subscription-set';
import { createUpcast, type Upcaster } from '../upcasting';
import { type ChainHead, chainedEventData, EMPTY_STREAM_HEAD, toRecordedEvent, toStoredEvent } from './event-mapping';
import { startKurrentDbSubscription } from './kurrentdb-subscription';

export interface KurrentDbEventStoreOptions {
  /** `kurrentdb://…` or `esdb://…`. */
  readonly connectionString: string;
  readonly upcasters?: readonly Upcaster[];
  /** Pause before a subscriber retries a failed handler or resubscribes after a drop. */
  readonly retryDelayMs?: number;
}

export interface KurrentDbEventStore extends EventStore {
  /** A stream's events as stored and hashed (SPEC §7 Audit), each leaf recomputed from them. */
  readStoredEvents(streamId: string): Promise<StoredLogEvent[]>;
}

// Each event carries its stream's previous leaf hash (`prev`), so an append first reads the stream's head
// and then appends expecting exactly that head: a writer that got in between makes it fail rather than
// break the chain. An append that expects `any` reads the head again and retries, this many times at most.
const ANY_APPEND_ATTEMPTS = 50;

const headState = (head: ChainHead): AppendStreamState =>
  head.nextRevision === 0 ? NO_STREAM : BigInt(head.nextRevision - 1);

const stateToAppend = (expected: ExpectedRevision, head: ChainHead): AppendStreamState =>
  expected === 'any' ? headState(head) : toStreamState(expected);

const lostRaces = (streamId: string): Error =>
  new Error(`append to ${streamId}: lost the race for its head ${ANY_APPEND_ATTEMPTS} times`);

const toStreamState = (expected: ExpectedRevision): AppendStreamState => {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
};

const toWrongExpectedRevision = (
  error: WrongExpectedVersionError,
  streamId: string,
  expected: ExpectedRevision,
): WrongExpectedRevisionError =>
  new WrongExpectedRevisionError(
    streamId,
    expected,
    error.actualState === NO_STREAM ? 'no_stream' : Number(error.actualState),
  );

export const createKurrentDbEventStore = (options: KurrentDbEventStoreOptions): KurrentDbEventStore => {
  const client = KurrentDBClient.connectionString(options.connectionString);
  const upcast = createUpcast(options.upcasters);
  const subscriptions = createSubscriptionSet();

  const collect = async (
    events: AsyncIterable<Parameters<typeof toRecordedEvent>[0]>,
    keep: (event: RecordedEvent) => boolean = () => true,
  ): Promise<RecordedEvent[]> => {
    const recorded: RecordedEvent[] = [];
    for await (const resolved of events) {
      const event = toRecordedEvent(resolved);
      if (event && keep(event)) recorded.push(upcast(event));
    }
    return recorded;
  };

  const storedEvents = async (
    streamId: string,
    read: Parameters<typeof client.readStream>[1],
  ): Promise<StoredLogEvent[]> => {
    const stored: StoredLogEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, read)) {
        const event = toStoredEvent(resolved);
        if (event) stored.push(event);
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return stored;
  };

  const readHead = async (streamId: string): Promise<ChainHead> => {
    const [last] = await storedEvents(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
    return last ? { nextRevision: last.revision + 1, prev: last.leafHash } : EMPTY_STREAM_HEAD;
  };

  const chained = async (streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) => {
    const head = await readHead(streamId);
    return { events: chainedEventData(streamId, head, events), state: stateToAppend(expected, head) };
  };

  const store: KurrentDbEventStore = {
    append: async (streamId, events, expected) => {
      if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
      for (let attempt = 1; ; attempt++) {
        const append = await chained(streamId, events, expected);
        try {
          const result = await client.appendToStream(streamId, append.events, { streamState: append.state });
          if (!result.position) throw new Error('KurrentDB returned no position for the append');
          return {
            nextExpectedRevision: Number(result.nextExpectedRevision),
            position: { commit: result.position.commit, prepare: result.position.prepare },
          };
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          if (expected !== 'any') throw toWrongExpectedRevision(error, streamId, expected);
          if (attempt === ANY_APPEND_ATTEMPTS) throw lostRaces(streamId);
        }
      }
    },
    // KurrentDB 25.1+: one atomic multi-stream append. It answers with each stream's new revision and one log
    // position, so the position of each stream's last event is read back from the stream.
    appendToStreams: async (appends) => {
      if (appends.length === 0) throw new RangeError('append to streams: no appends');
      if (new Set(appends.map((append) => append.streamId)).size !== appends.length)
        throw new RangeError('append to streams: a stream appears twice');
      for (const { streamId, events } of appends)
        if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
      let revisions: bigint[] | undefined;
      for (let attempt = 1; !revisions; attempt++) {
        const chains = await Promise.all(
          appends.map(({ streamId, events, expected }) => chained(streamId, events, expected)),
        );
        try {
          const result = await client.multiStreamAppend(
            appends.map(({ streamId }, i) => ({
              streamName: streamId,
              events: chains[i]!.events,
              expectedState: chains[i]!.state,
            })),
          );
          const byStream = new Map(result.responses.map((response) => [response.streamName, response.revision]));
          revisions = appends.map(({ streamId }) => byStream.get(streamId) ?? -1n);
        } catch (error) {
          const refused = appends.find(({ streamId }) => (error as WrongExpectedVersionError).streamName === streamId);
          if (!(error instanceof WrongExpectedVersionError) || !refused) throw error;
          if (refused.expected !== 'any') throw toWrongExpectedRevision(error, refused.streamId, refused.expected);
          if (attempt === ANY_APPEND_ATTEMPTS) throw lostRaces(refused.streamId);
        }
      }
      const appended = revisions;
      return Promise.all(
        appends.map(async ({ streamId }, i) => {
          const [last] = await collect(client.readStream(streamId, { fromRevision: appended[i]!, maxCount: 1 }));
          if (!last) throw new Error(`KurrentDB did not return revision ${appended[i]} of ${streamId} just appended`);
          return { nextExpectedRevision: last.revision, position: last.position };
        }),
      );
    },
    readStoredEvents: (streamId) => storedEvents(streamId, { fromRevision: START, maxCount: Number.MAX_SAFE_INTEGER }),
    readStream: async (streamId, readOptions) => {
      try {
        return await collect(
          client.readStream(streamId, {
            fromRevision: BigInt(readOptions?.fromRevision ?? 0),
            maxCount: readOptions?.limit ?? Number.MAX_SAFE_INTEGER,
          }),
        );
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
    },
    readAll: async (after, limit) => {
      if (after === 'start') {
        return collect(client.readAll({ fromPosition: START, maxCount: limit, filter: excludeSystemEvents() }));
      }
      // Reading $all from a position includes the event at it; `after` is exclusive.
      const events = await collect(
        client.readAll({ fromPosition: after, maxCount: limit + 1, filter: excludeSystemEvents() }),
        (event) => comparePositions(event.position, after) > 0,
      );
      return events.slice(0, limit);
    },
    subscribeToAll: (after, handler, subscriptionOptions) => {
      const subscription = startKurrentDbSubscription({
        client,
        upcast,
        after,
        handler,
        batchSize: subscriptionOptions?.batchSize ?? DEFAULT_BATCH_SIZE,
        onError: subscriptionOptions?.onError ?? reportToConsole,
        retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
      });
      return subscriptions.track(subscription);
    },
    headPosition: async () => {
      const newest = client.readAll({
        direction: BACKWARDS,
        fromPosition: END,
        maxCount: 1,
        filter: excludeSystemEvents(),
      });
      for await (const resolved of newest) {
        const position = resolved.event?.position;
        if (position) return { commit: position.commit, prepare: position.prepare };
      }
      return 'start';
    },
    // Every committed event is readable on $all here, so the readable head bounds what was handed out.
    mayHaveIssued: async (position) => isAtOrAfter(await store.headPosition(), position),
    close: async () => {
      await subscriptions.stopAll();
      await client.dispose();
    },
  };
  return store;
};
