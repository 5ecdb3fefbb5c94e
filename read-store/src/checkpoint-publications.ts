import type { Logger } from '@cropcover/runtime';
import type pg from 'pg';
import { type ChannelListener, type ChannelWatcher, listenToChannel } from './channel-listener';

/** PostgreSQL NOTIFY channel on which the audit integrator announces each checkpoint it published to the
 *  sink (payload: its tree size), so the payout gate releases the deliveries it covers without polling. */
export const CHECKPOINT_PUBLISHED_CHANNEL = 'audit_checkpoint_published';
/** Names the LISTEN connection in pg_stat_activity. */
export const PUBLICATION_LISTENER_APPLICATION_NAME = 'cropcover-checkpoint-publications';

/** Marks a checkpoint published and announces it in the same statement: delivered on its commit and only
 *  then, so no listener hears of a publication it cannot read yet. */
export const MARK_CHECKPOINT_PUBLISHED = `with published as (
    update audit_checkpoints set published_at = $2 where tree_size = $1 returning tree_size)
  select pg_notify('${CHECKPOINT_PUBLISHED_CHANNEL}', tree_size::text) from published`;

export type ListenToCheckpointPublications = (watcher: ChannelWatcher) => ChannelListener;

/** One LISTEN connection that tells the watcher of every checkpoint published, reopened after it fails. */
export const listenToCheckpointPublications =
  (pool: pg.Pool, logger: Logger): ListenToCheckpointPublications =>
  (watcher) =>
    listenToChannel(
      { pool, channel: CHECKPOINT_PUBLISHED_CHANNEL, applicationName: PUBLICATION_LISTENER_APPLICATION_NAME, logger },
      watcher,
    );
