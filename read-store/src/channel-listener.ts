import type { Logger } from '@cropcover/runtime';
import pg from 'pg';

export interface ChannelWatcher {
  /** A notification on the channel, with its payload. */
  readonly onNotified: (payload: string) => void;
  /** True once LISTEN took effect; false as soon as the connection fails (notifications may be missed until
   *  the next true). */
  readonly onListening: (listening: boolean) => void;
}

export interface ChannelListener {
  close(): Promise<void>;
}

export interface ChannelListenerOptions {
  readonly pool: pg.Pool;
  readonly channel: string;
  /** Names the LISTEN connection in pg_stat_activity. */
  readonly applicationName: string;
  readonly logger: Logger;
  readonly reconnectDelayMs?: number;
}

/** One LISTEN connection on a channel that tells the watcher of every notification, reopened after it fails. */
export const listenToChannel = (
  { pool, channel, applicationName, logger, reconnectDelayMs = 1000 }: ChannelListenerOptions,
  watcher: ChannelWatcher,
): ChannelListener => {
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
      }, reconnectDelayMs);
  };

  const listen = async (): Promise<void> => {
    reconnectTimer = undefined;
    const client = new pg.Client({ ...pool.options, application_name: applicationName });
    client.on('notification', (notification) => {
      if (notification.channel === channel && notification.payload) watcher.onNotified(notification.payload);
    });
    client.on('error', (error) => {
      logger.warn({ err: error, channel }, 'notification listener failed; reconnecting');
      drop(client);
    });
    client.on('end', () => drop(client));
    current = client;
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      logger.warn({ err: error, channel }, 'notification listener could not connect; retrying');
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
