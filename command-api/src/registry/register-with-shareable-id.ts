import { randomBytes } from 'node:crypto';
import {
  type CommandContext,
  type CommandOutcome,
  type DomainEvent,
  loadStream,
  toNewEvent,
} from '@cropcover/application';
import { type Aggregate, newShareableId, type ShareableIdPrefix, shareableIdStream } from '@cropcover/domain';
import { type EventStore, WrongExpectedRevisionError } from '@cropcover/eventstore';
import { inSpan } from '@cropcover/runtime';

/** 35 random bits make a collision rare; a few draws make failure practically impossible. */
const MAX_DRAWS = 5;

/**
 * Starts a new stream (a farm, a farmer profile) and claims its shareable id in one atomic append: one
 * statement and one transaction, where claiming first and registering after took two, and a crash
 * between them can no longer burn a code. `shareable-id-<code>` can be created only once, so two farms or
 * farmers never share a code and a code is never handed out again; a code already taken makes a new draw.
 * When the stream exists already (a concurrent registration of the same id won), nothing is appended and
 * the outcome is that stream's state, with `appended` undefined.
 */
export const registerWithShareableId = <State, Event extends DomainEvent>(
  eventStore: EventStore,
  prefix: ShareableIdPrefix,
  streamId: string,
  aggregate: Aggregate<State, Event>,
  decide: (shareableId: string) => Event[],
  context: CommandContext,
  drawShareableId: () => string = () => newShareableId(prefix, randomBytes(7)),
): Promise<CommandOutcome<State>> =>
  inSpan('command', { attributes: { 'cropcover.stream_id': streamId } }, async () => {
    for (let draw = 1; ; draw += 1) {
      const code = drawShareableId();
      const events = decide(code);
      const claim = toNewEvent({ type: 'ShareableIdClaimed', data: { code, claimed_by: streamId } }, context);
      try {
        const [, appended] = await eventStore.appendToStreams([
          { streamId: shareableIdStream(code), events: [claim], expected: 'no_stream' },
          { streamId, events: events.map((event) => toNewEvent(event, context)), expected: 'no_stream' },
        ]);
        return {
          state: events.reduce(aggregate.evolve, aggregate.initial),
          expected: appended!.nextExpectedRevision,
          appended,
          position: appended!.position,
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (error.streamId === streamId) {
          const existing = await loadStream(eventStore, streamId, aggregate);
          return {
            state: existing.state,
            expected: existing.expected,
            appended: undefined,
            position: existing.position,
          };
        }
        if (draw >= MAX_DRAWS) throw error;
      }
    }
  });
