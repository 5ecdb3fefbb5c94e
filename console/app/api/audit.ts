import type { AuditCheckpoint, AuditEvent } from '@cropcover/contracts';
import { apiGet, apiGetAll } from './client';

// The audit endpoints the console reads (SPEC §7 Audit): a policy's events with the log's proof of each,
// the latest signed checkpoint, and the keys that sign checkpoints.

/** An event of `…/events?proofs=true`: as the API shows it, plus what the log stored and proves. */
export interface ProvenAuditEvent extends AuditEvent {
  readonly event_id: string;
  /** The exact texts the leaf hashed (RFC 8785). */
  readonly stored: { readonly data: string; readonly metadata: string };
  /** base64: the leaf hash of the stream's previous revision, and this event's as the log stored it. */
  readonly prev: string;
  readonly leaf_hash: string;
  /** Null until the integrator has put the event in the tree and a checkpoint covers it. */
  readonly leaf_index: number | null;
  readonly proof: { readonly leaf_index: number; readonly tree_size: number; readonly hashes: string[] } | null;
}

export interface AuditKey {
  readonly name: string;
  readonly key_id: string;
  readonly algorithm: 'ed25519';
  readonly vkey: string;
  readonly valid_from: string;
  readonly valid_to?: string;
}

const policyPath = (policyId: string): string => `/insurance/policies/${encodeURIComponent(policyId)}`;

export const listProvenEvents = (policyId: string, signal: AbortSignal): Promise<ProvenAuditEvent[]> =>
  apiGetAll<ProvenAuditEvent>(`${policyPath(policyId)}/events`, { proofs: 'true' }, signal);

export const getLatestCheckpoint = (signal: AbortSignal): Promise<AuditCheckpoint> =>
  apiGet<AuditCheckpoint>('/audit/checkpoints/latest', {}, signal);

export const listAuditKeys = async (signal: AbortSignal): Promise<AuditKey[]> =>
  (await apiGet<{ keys: AuditKey[] }>('/audit/keys', {}, signal)).keys;
