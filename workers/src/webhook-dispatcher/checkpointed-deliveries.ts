import type { DeliveryAudit, TriggerBreachedDelivery } from '@cropcover/contracts';
import {
  checkpointOnTheWire,
  type ListenToCheckpointPublications,
  loadInclusionProofs,
  loadNewestPublishedCheckpoint,
  type ReadModels,
} from '@cropcover/read-store';
import { createWakeableIdle, type Logger, pauseUnlessAborted } from '@cropcover/runtime';
import { type Kysely, sql } from 'kysely';

// The payout gate of SPEC §7 Audit: a trigger.breached delivery is not sent before a signed checkpoint
// that reached the checkpoint sink covers its breach, and then carries the breach's inclusion proof and
// that checkpoint inside the signed body, so the receiver can check the breach is in the log everyone
// else is shown. The proof is written into the payload once, so every retry sends the same body.

/** Breaches given their proof at a time. */
const BATCH = 500;

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Gives every waiting delivery whose breach a published checkpoint now covers its proof, and makes it
 *  due; answers how many deliveries it released. Several dispatchers may run it at once: a delivery
 *  already released is left as it is. */
export const releaseCheckpointedDeliveries = async (db: Kysely<ReadModels>): Promise<number> => {
  const checkpoint = await loadNewestPublishedCheckpoint(db);
  if (!checkpoint) return 0;
  const covered = await sql<{ event_id: string; payload: string; leaf_index: string }>`
    select distinct on (d.event_id) d.event_id, d.payload, l.leaf_index
      from webhook_deliveries d
      join audit_leaves l
        on (l.position_commit, l.position_prepare) = (d.breach_commit_position, d.breach_prepare_position)
     where d.awaiting_checkpoint and d.status = 'pending' and l.leaf_index < ${checkpoint.size}
     order by d.event_id
     limit ${BATCH}`.execute(db);
  if (covered.rows.length === 0) return 0;
  const proofs = await loadInclusionProofs(
    db,
    covered.rows.map((row) => Number(row.leaf_index)),
    checkpoint.size,
  );
  const payloads = covered.rows.map((row, i) => {
    const audit: DeliveryAudit = {
      leaf_index: Number(row.leaf_index),
      tree_size: checkpoint.size,
      hashes: proofs[i]!.map(base64),
      checkpoint: checkpointOnTheWire(checkpoint),
    };
    const delivery = JSON.parse(row.payload) as TriggerBreachedDelivery;
    return JSON.stringify({ ...delivery, data: { ...delivery.data, audit } });
  });
  const { numAffectedRows } = await sql`
    update webhook_deliveries d
       set payload = p.payload, awaiting_checkpoint = false
      from unnest(${covered.rows.map((row) => row.event_id)}::text[], ${payloads}::text[]) as p(event_id, payload)
     where d.event_id = p.event_id and d.awaiting_checkpoint`.execute(db);
  return Number(numAffectedRows ?? 0n);
};

export interface CheckpointedReleaseOptions {
  readonly db: Kysely<ReadModels>;
  /** How the gate hears of checkpoint publications; without it, it polls at the deaf interval. */
  readonly hear?: ListenToCheckpointPublications;
  /** Called whenever it released deliveries: they are due now. */
  readonly onReleased: () => void;
  readonly logger: Logger;
  /** The poll while publications are heard, only in case one was not. */
  readonly hearingPollMs?: number;
  /** The poll while the listener is down: a delivery waits at most the checkpoint interval and this. */
  readonly deafPollMs?: number;
}

export interface CheckpointedRelease {
  /** Deliveries were recorded that a checkpoint published before them may already cover: look now. */
  wake(): void;
  stop(): Promise<void>;
}

/** Releases checkpointed deliveries until stopped: at each checkpoint published, each wake, and each poll. */
export const startCheckpointedRelease = ({
  db,
  hear,
  onReleased,
  logger,
  hearingPollMs = 5_000,
  deafPollMs = 250,
}: CheckpointedReleaseOptions): CheckpointedRelease => {
  const stopping = new AbortController();
  const rest = createWakeableIdle();
  const wake = (): void => rest.wake();
  let hearing = false;
  // A change of the listener wakes the gate too: publications may have gone unheard, and the poll's
  // interval changes.
  const listener = hear?.({
    onNotified: wake,
    onListening: (now) => {
      hearing = now;
      wake();
    },
  });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        const released = await releaseCheckpointedDeliveries(db);
        if (released > 0) onReleased();
        else await rest.idle(hearing ? hearingPollMs : deafPollMs);
      } catch (error) {
        if (stopping.signal.aborted) break;
        logger.error({ err: error }, 'could not release checkpointed webhook deliveries; retrying');
        await pauseUnlessAborted(1_000, stopping.signal);
      }
    }
  })();
  return {
    wake,
    stop: async () => {
      stopping.abort();
      rest.stop();
      await loop;
      await listener?.close();
    },
  };
};
