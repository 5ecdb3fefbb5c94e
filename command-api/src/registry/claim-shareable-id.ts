import { randomBytes } from 'node:crypto';
import { type CommandContext, toNewEvent } from '@cropcover/application';
import { newShareableId, type ShareableIdPrefix, shareableIdStream } from '@cropcover/domain';
import { type EventStore, WrongExpectedRevisionError } from '@cropcover/eventstore';

/** 35 random bits make a collision rare; a few draws make failure practically impossible. */
const MAX_DRAWS = 5;

/** Claims a fresh shareable id for good: its stream `shareable-id-<code>` can be created only once, so
 *  two farms or farmers never share a code and a code is never handed out again. */
export const claimShareableId = async (
  eventStore: EventStore,
  prefix: ShareableIdPrefix,
  claimedBy: string,
  context: CommandContext,
): Promise<string> => {
  for (let draw = 1; ; draw += 1) {
    const code = newShareableId(prefix, randomBytes(7));
    try {
      await eventStore.append(
        shareableIdStream(code),
        [toNewEvent({ type: 'ShareableIdClaimed', data: { code, claimed_by: claimedBy } }, context)],
        'no_stream',
      );
      return code;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || draw >= MAX_DRAWS) throw error;
    }
  }
};
