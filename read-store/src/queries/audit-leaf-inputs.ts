import type { StoredLogEvent } from '@cropcover/eventstore';
import { canonicalJson, leafEnvelopeOf } from '@cropcover/verifiable-log';
import type { KeptLeaf } from './audit-tree';

/** A leaf as the audit shows it (`GET /audit/leaves`, `export --full`). */
export interface ShownLeaf {
  readonly leafIndex: number;
  readonly stream: string;
  readonly revision: number;
  /** The hash the tree took. */
  readonly leafHash: Uint8Array;
  /** The leaf input; null only when the event is gone and no envelope was kept (migration 0041). */
  readonly input: string | null;
  readonly eventMissing: boolean;
}

/** Each leaf's input: recomputed from the stored bytes while the log holds its event, so an edited row
 *  shows as an input that no longer hashes to the leaf; else the envelope the integrator kept, so a
 *  deleted row shows as a leaf whose event is missing (issue 32). */
export const shownLeaves = (leaves: readonly KeptLeaf[], stored: readonly StoredLogEvent[]): ShownLeaf[] => {
  const storedAt = new Map(stored.map((event) => [`${event.revision}:${event.stream}`, event]));
  return leaves.map((leaf) => {
    const event = storedAt.get(`${leaf.revision}:${leaf.stream}`);
    const envelope = event ? leafEnvelopeOf(event) : leaf.envelope;
    return {
      leafIndex: leaf.leafIndex,
      stream: leaf.stream,
      revision: leaf.revision,
      leafHash: leaf.leafHash,
      input: envelope ? canonicalJson(envelope) : null,
      eventMissing: event === undefined,
    };
  });
};
