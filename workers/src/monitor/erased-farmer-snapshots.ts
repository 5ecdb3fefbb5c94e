import { decodeEvent, isOneOf } from '@cropcover/application';
import type { EventStore } from '@cropcover/eventstore';
import { type Projection, startProjector } from '@cropcover/projector';
import type { ReadModels } from '@cropcover/read-store';
import type { Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import { dropSnapshotsOfFarmers } from './policy-snapshots';

/** Its checkpoint's name. Not a read-model projection: the snapshots are the monitor's, and a rebuild of
 *  the read models leaves them (a replay would drop nothing more). */
export const ERASED_FARMER_SNAPSHOTS_NAME = 'monitor-erased-farmer-snapshots';

const isErasure = isOneOf(new Set(['FarmerErased'] as const));

/** The monitor's reaction to a farmer's erasure: it drops its own snapshots of their policies, by owner. */
export const erasedFarmerSnapshots = (): Projection => ({
  name: ERASED_FARMER_SNAPSHOTS_NAME,
  tables: [],
  apply: async (trx, events) => {
    const erased = events.filter(isErasure).map((event) => decodeEvent(event).data.farmer_id);
    await dropSnapshotsOfFarmers(trx, erased);
  },
});

/** Almost no append is an erasure: the log is read at most every 50 ms. */
const GATHER_MS = 50;

export interface ErasedFarmerSnapshots {
  stop(): Promise<void>;
}

/** Runs the reaction on its own checkpoint in the monitor's process, whether or not its rounds are on. */
export const startErasedFarmerSnapshots = async (options: {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly logger: Logger;
}): Promise<ErasedFarmerSnapshots> => {
  const follower = await startProjector({
    eventStore: options.eventStore,
    db: options.db,
    projections: [erasedFarmerSnapshots()],
    logger: options.logger,
    gatherMs: GATHER_MS,
  });
  return { stop: () => follower.stop() };
};
