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
import { comparePositions } from '../position';
import { DEFAULT_BATCH_SIZE, DEFAULT_RETRY_DELAY_MS, reportToConsole } from '../subscription-defaults';
import { createSubscriptionSet } from '../subscription-set';
import { createUpcast, type Upcaster } from '../upcasting';
import { toEventData, toRecordedEvent } from './event-mapping';
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
        const actual = error.actualState === NO_STREAM ? 'no_stream' : Number(error.actualState);
        throw new WrongExpectedRevisionError(streamId, expected, actual);
      }
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
    close: async () => {
      await subscriptions.stopAll();
      await client.dispose();
    },
  };
  return store;
};
