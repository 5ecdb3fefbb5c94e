import type { Logger } from '@cropcover/runtime';
import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { type ChannelListener, listenToChannel } from './channel-listener';
import type { ReadModels } from './read-models';

/** PostgreSQL NOTIFY channel on which an erasure announces the farmer whose data key it destroyed, so every
 *  process drops that key from its cache (SPEC §6 erasure; why, in docs/decisions.md). */
export const FARMER_KEY_ERASED_CHANNEL = 'farmer_key_erased';
/** Names the LISTEN connection in pg_stat_activity. */
export const ERASURE_LISTENER_APPLICATION_NAME = 'cropcover-farmer-key-erasures';

/** Announces the erasure from inside the transaction that destroys the key: delivered on commit and only
 *  then, so no process drops a key that is still live, and none misses a key that is gone. */
export const notifyFarmerKeyErased = async (trx: Transaction<ReadModels>, farmerId: string): Promise<void> => {
  await sql`select pg_notify(${FARMER_KEY_ERASED_CHANNEL}, ${farmerId})`.execute(trx);
};

export interface FarmerKeyErasureWatcher {
  /** A farmer's key was destroyed by some process. */
  readonly onErased: (farmerId: string) => void;
  /** True once LISTEN took effect; false as soon as the connection fails (erasures may be missed until the
   *  next true, so keys are not cached meanwhile). */
  readonly onListening: (listening: boolean) => void;
}

export type FarmerKeyErasureListener = ChannelListener;

/** One LISTEN connection that tells the watcher of every erasure, reopened after it fails. */
export const listenToFarmerKeyErasures = (
  pool: pg.Pool,
  logger: Logger,
  { onErased, onListening }: FarmerKeyErasureWatcher,
): FarmerKeyErasureListener =>
  listenToChannel(
    { pool, channel: FARMER_KEY_ERASED_CHANNEL, applicationName: ERASURE_LISTENER_APPLICATION_NAME, logger },
    { onNotified: onErased, onListening },
  );
