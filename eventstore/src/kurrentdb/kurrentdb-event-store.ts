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
import { type EventStore, type ExpectedRevision, type RecordedEvent, WrongExpectedRevisionError } from '../port';
import { comparePositions, isAtOrAfter } from '../position';
import { DEFAULT_BATCH_SIZE, DEFAULT_RETRY_DELAY_MS, reportToConsole } from '../subscription-defaults';
import { createSubscriptionSet } from '../subscription-set';
import { createUpcast, type Upcaster } from '../upcasting';
import { toEventData, toPropertiesEventData, toRecordedEvent } from './event-mapping';
import { startKurrentDbSubscription } from './kurrentdb-subscription';

export interface KurrentDbEventStoreOptions {
  /** `kurrentdb://…` or `esdb://…`. */
  readonly connectionString: string;
  readonly upcasters?: readonly Upcaster[];
  /** Pause before a subscriber retries a failed handler or resubscribes after a drop. */
  readonly retryDelayMs?: number;
}

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

export const createKurrentDbEventStore = (options: KurrentDbEventStoreOptions): EventStore => {
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

  const store: EventStore = {
    append: async (streamId, events, expected) => {
      if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
      try {
        const result = await client.appendToStream(streamId, events.map(toEventData), {
          streamState: toStreamState(expected),
        });
        if (!result.position) throw new Error('KurrentDB returned no position for the append');
        return {
          nextExpectedRevision: Number(result.nextExpectedRevision),
          position: { commit: result.position.commit, prepare: result.position.prepare },
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        throw toWrongExpectedRevision(error, streamId, expected);
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
      let revisions: bigint[];
      try {
        const result = await client.multiStreamAppend(
          appends.map(({ streamId, events, expected }) => ({
            streamName: streamId,
            events: events.map(toPropertiesEventData),
            expectedState: toStreamState(expected),
          })),
        );
        const byStream = new Map(result.responses.map((response) => [response.streamName, response.revision]));
        revisions = appends.map(({ streamId }) => byStream.get(streamId) ?? -1n);
      } catch (error) {
        const refused = appends.find(({ streamId }) => (error as WrongExpectedVersionError).streamName === streamId);
        if (!(error instanceof WrongExpectedVersionError) || !refused) throw error;
        throw toWrongExpectedRevision(error, refused.streamId, refused.expected);
      }
      return Promise.all(
        appends.map(async ({ streamId }, i) => {
          const [last] = await collect(client.readStream(streamId, { fromRevision: revisions[i]!, maxCount: 1 }));
          if (!last) throw new Error(`KurrentDB did not return revision ${revisions[i]} of ${streamId} just appended`);
          return { nextExpectedRevision: last.revision, position: last.position };
        }),
      );
    },
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
