import type { EventStore } from '@cropcover/eventstore';
import { startProjector } from '@cropcover/projector';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import { programmeBookKeeper } from './programme-book-keeper';

export interface ProgrammeBookKeeper {
  stop(): Promise<void>;
}

/** Most appends are no policy's issue, lapse, close or payout: read the log at most every 50 ms. */
const GATHER_MS = 50;

/** Runs the book keeper on its own checkpoint, beside the monitor that closes the policies it releases. */
export const startProgrammeBookKeeper = async (options: {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly clock: Clock;
  readonly logger: Logger;
}): Promise<ProgrammeBookKeeper> => {
  const keeper = await startProjector({
    eventStore: options.eventStore,
    db: options.db,
    projections: [programmeBookKeeper(options.eventStore, options.clock)],
    logger: options.logger,
    gatherMs: GATHER_MS,
  });
  return { stop: () => keeper.stop() };
};
