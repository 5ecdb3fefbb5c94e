import type { AuditCheckpoint, AuditEvent, AuditKey, AuditKeyList, PolicyEventPage } from '@cropcover/contracts';
import { apiGet } from './client';

// The audit endpoints the console reads (SPEC §7 Audit): a policy's events with the log's proof of each,
// and the keys that sign checkpoints, typed by the API's own contracts.

/** An event of `…/events?proofs=true`: the contract's event, whose proof fields that query always fills
 *  (`leaf_index` and `proof` stay nullable: null until the integrator and a checkpoint have taken it). */
export type ProvenAuditEvent = AuditEvent &
  Required<Pick<AuditEvent, 'stored' | 'prev' | 'leaf_hash' | 'leaf_index' | 'proof'>>;

/** A page of `…/events?proofs=true`: its events proven against its `checkpoint`. */
type ProvenEventPage = Omit<PolicyEventPage, 'items'> & { readonly items: ProvenAuditEvent[] };

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
  return { pages: [first, ...rest].map((page) => ({ events: page.items, checkpoint: page.checkpoint ?? null })) };
};

export const listAuditKeys = async (signal: AbortSignal): Promise<AuditKey[]> =>
  (await apiGet<AuditKeyList>('/audit/keys', {}, signal)).keys;
