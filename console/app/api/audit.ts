import type { AuditCheckpoint, AuditEvent } from '@cropcover/contracts';
import { apiGet } from './client';

// The audit endpoints the console reads (SPEC §7 Audit): a policy's events with the log's proof of each,
// and the keys that sign checkpoints.

type InclusionProof = { readonly leaf_index: number; readonly tree_size: number; readonly hashes: string[] };

/** An event of `…/events?proofs=true`: as the API shows it, plus what the log stored and proves. */
export interface ProvenAuditEvent extends AuditEvent {
  /** The exact texts the leaf hashed (RFC 8785), never upcast. */
  readonly stored: { readonly data: string; readonly metadata: string };
  /** base64: the leaf hash of the stream's previous revision, and this event's as the log stored it. */
  readonly prev: string;
  readonly leaf_hash: string;
  /** Null until the integrator has put the event in the tree. */
  readonly leaf_index: number | null;
  /** Inclusion in the page's checkpoint; null while that checkpoint does not cover the event. */
  readonly proof: InclusionProof | null;
}

interface ProvenEventPage {
  readonly items: ProvenAuditEvent[];
  readonly total: number;
  /** The newest signed checkpoint when the page was read: its proofs are against it. */
  readonly checkpoint: AuditCheckpoint | null;
}

export interface AuditKey {
  readonly name: string;
  readonly key_id: string;
  readonly algorithm: 'ed25519';
  readonly vkey: string;
  readonly valid_from: string;
  readonly valid_to?: string;
}

/** A policy's events with their proofs, page by page as the API answers them (a page's proofs are
 *  against that page's checkpoint, which may be newer than the previous page's). */
export interface ProvenEvents {
  readonly pages: readonly { readonly events: ProvenAuditEvent[]; readonly checkpoint: AuditCheckpoint | null }[];
}

/** The API's largest page. */
const PAGE_SIZE = 100;

export const listProvenEvents = async (policyId: string, signal: AbortSignal): Promise<ProvenEvents> => {
  const path = `/insurance/policies/${encodeURIComponent(policyId)}/events`;
  const pageOf = (page: number) =>
    apiGet<ProvenEventPage>(path, { proofs: 'true', page, page_size: PAGE_SIZE }, signal);
  const first = await pageOf(1);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, Math.ceil(first.total / PAGE_SIZE) - 1) }, (_, index) => pageOf(index + 2)),
  );
  return { pages: [first, ...rest].map((page) => ({ events: page.items, checkpoint: page.checkpoint })) };
};

export const listAuditKeys = async (signal: AbortSignal): Promise<AuditKey[]> =>
  (await apiGet<{ keys: AuditKey[] }>('/audit/keys', {}, signal)).keys;
