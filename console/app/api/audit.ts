import type { AuditCheckpoint, AuditEvent } from '@cropcover/contracts';
import { callApi, everyPage } from './client';

// The audit endpoints the console reads (SPEC §7 Audit): a policy's events with the log's proof of each,
// and the keys that sign checkpoints, typed by the API's own contracts.

/** An event of `…/events?proofs=true` on a log that keeps the texts it hashed: the contract's event with
 *  its proof fields filled (`leaf_index` and `proof` stay nullable: null until the integrator and a
 *  checkpoint have taken it). */
export type ProvenAuditEvent = AuditEvent &
  Required<Pick<AuditEvent, 'stored' | 'prev' | 'leaf_hash' | 'leaf_index' | 'proof'>>;

/** A policy's events with their proofs, page by page as the API answers them (a page's proofs are
 *  against that page's checkpoint, which may be newer than the previous page's). */
export interface ProvenEvents {
  readonly pages: readonly { readonly events: ProvenAuditEvent[]; readonly checkpoint: AuditCheckpoint | null }[];
}

const isProven = (event: AuditEvent): event is ProvenAuditEvent =>
  event.stored !== undefined &&
  event.prev !== undefined &&
  event.leaf_hash !== undefined &&
  event.leaf_index !== undefined &&
  event.proof !== undefined;

/** The page's events, each with what a verifier needs: an event the log kept no texts of cannot be
 *  proven, and the page says so rather than judging it. */
const provenEvents = (events: readonly AuditEvent[]): ProvenAuditEvent[] =>
  events.map((event) => {
    if (isProven(event)) return event;
    throw new Error(`Event ${event.revision} came without the texts its leaf hashed: this log cannot prove it.`);
  });

export const listProvenEvents = async (policyId: string, signal: AbortSignal): Promise<ProvenEvents> => {
  const pages = await everyPage((page, page_size) =>
    callApi(
      'GET /insurance/policies/{policy_id}/events',
      { params: { policy_id: policyId }, query: { proofs: true, page, page_size } },
      signal,
    ),
  );
  return { pages: pages.map((page) => ({ events: provenEvents(page.items), checkpoint: page.checkpoint ?? null })) };
};

export const listAuditKeys = async (signal: AbortSignal) => (await callApi('GET /audit/keys', {}, signal)).keys;
