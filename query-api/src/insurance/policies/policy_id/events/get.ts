import { actorOf } from '@cropcover/application';
import {
  type AuditEvent,
  PolicyEventPage,
  PolicyEventsQuery,
  PolicyIssued,
  PolicyPathParams,
  UNKNOWN_POLICY,
} from '@cropcover/contracts';
import { canSeePolicy, policyStream } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import { queryRoute } from '../../../../query-route';
import { POLICY_READERS, policyNotFound } from '../../../visible-policy';
import { withProofs } from './event-proofs';

export const auditEvent = (event: RecordedEvent): AuditEvent => ({
  revision: event.revision,
  type: event.type,
  data: event.data as AuditEvent['data'],
  metadata: event.metadata,
  occurred_at: event.metadata.occurred_at,
});

/** SPEC §7 audit: the policy's stream, in order, read from
 *  the log itself rather than a read model. A policy's stream stays small (one evaluation a day over at
 *  most 366 + 30 days), so it is read whole for its length and owner, then sliced. With `proofs=true`
 *  each event also carries its stored bytes, leaf and inclusion proof against the newest checkpoint. */
export const listPolicyEvents = queryRoute('GET /insurance/policies/{policy_id}/events', {
  summary: "The policy's event stream in order, for auditors",
  description:
    "With `proofs=true` each event adds the texts its leaf hashed (`stored`), `prev`, `leaf_hash`, `leaf_index` and its inclusion `proof` against the page's `checkpoint`, the newest signed one (SPEC §7 Audit).",
  roles: POLICY_READERS,
  request: { params: PolicyPathParams, query: PolicyEventsQuery },
  success: { status: 200, schema: PolicyEventPage, description: 'A page of events' },
  problems: { 404: UNKNOWN_POLICY },
}).handle(async ({ deps, params: { policy_id }, query: { page, page_size, proofs }, principal }) => {
  const streamId = policyStream(policy_id);
  const stream = await deps.eventStore.readStream(streamId);
  const issued = stream[0];
  const policy = issued?.type === 'PolicyIssued' ? PolicyIssued.parse(issued.data) : undefined;
  if (policy === undefined || !canSeePolicy(actorOf(principal), policy)) throw policyNotFound(policy_id);
  const first = (page - 1) * page_size;
  const items = stream.slice(first, first + page_size).map(auditEvent);
  const pageOf = { policy_id, total: stream.length, page, page_size };
  if (!proofs) return { ...pageOf, items };
  return { ...pageOf, ...(await withProofs(deps, streamId, items)) };
});
