import type { Logger } from '@cropcover/runtime';
import { sql, type Transaction } from 'kysely';
import pg from 'pg';
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
   *  next true). */
  readonly onListening: (listening: boolean) => void;
}

export interface FarmerKeyErasureListener {
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/** One LISTEN connection that tells the watcher of every erasure, reopened after it fails. */
export const listenToFarmerKeyErasures = (
  pool: pg.Pool,
  logger: Logger,
  watcher: FarmerKeyErasureWatcher,
): FarmerKeyErasureListener => {
  let closed = false;
  let current: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  const drop = (client: pg.Client): void => {
    if (current !== client) return;
    current = undefined;
    watcher.onListening(false);
    client.end().catch(() => undefined);
    if (!closed)
      reconnectTimer = setTimeout(() => {
        connecting = listen();
      }, RECONNECT_DELAY_MS);
  };

  const listen = async (): Promise<void> => {
    reconnectTimer = undefined;
    const client = new pg.Client({ ...pool.options, application_name: ERASURE_LISTENER_APPLICATION_NAME });
    client.on('notification', ({ channel, payload }) => {
      if (channel === FARMER_KEY_ERASED_CHANNEL && payload) watcher.onErased(payload);
    });
    client.on('error', (error) => {
      logger.warn({ err: error }, 'farmer key erasure listener failed; keys are not cached until it reconnects');
      drop(client);
    });
    client.on('end', () => drop(client));
    current = client;
    try {
      await client.connect();
      await client.query(`listen ${FARMER_KEY_ERASED_CHANNEL}`);
    } catch (error) {
      logger.warn({ err: error }, 'farmer key erasure listener could not connect; retrying');
      drop(client);
      return;
    }
    if (current === client && !closed) watcher.onListening(true);
  };

  connecting = listen();
  return {
    close: async () => {
      closed = true;
      clearTimeout(reconnectTimer);
      await connecting;
      const client = current;
      current = undefined;
      watcher.onListening(false);
      await client?.end().catch(() => undefined);
    },
  };
};
