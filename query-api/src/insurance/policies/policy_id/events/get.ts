import { actorOf } from '@cropcover/application';
import {
  type AuditEvent,
  type PolicyEventPage,
  PolicyEventsQuery,
  PolicyIssued,
  PolicyPathParams,
} from '@cropcover/contracts';
import { canSeePolicy, policyStream } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import { parseParams, parseQuery, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../../query-api-deps';
import { policyNotFound, requirePolicyReader } from '../../../visible-policy';

export const auditEvent = (event: RecordedEvent): AuditEvent => ({
  revision: event.revision,
  type: event.type,
  data: event.data as AuditEvent['data'],
  metadata: event.metadata,
  occurred_at: event.metadata.occurred_at,
});

/** GET /insurance/policies/{policy_id}/events — SPEC §7 audit: the policy's stream, in order, read from
 *  the log itself rather than a read model. A policy's stream stays small (one evaluation a day over at
 *  most 366 + 30 days), so it is read whole for its length and owner, then sliced. */
export const listPolicyEvents =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const principal = principalOf(req);
    requirePolicyReader(principal);
    const { policy_id } = parseParams(PolicyPathParams, req);
    const { page, page_size } = parseQuery(PolicyEventsQuery, req);
    const stream = await deps.eventStore.readStream(policyStream(policy_id));
    const issued = stream[0];
    const policy = issued?.type === 'PolicyIssued' ? PolicyIssued.parse(issued.data) : undefined;
    if (policy === undefined || !canSeePolicy(actorOf(principal), policy)) throw policyNotFound(policy_id);
    const first = (page - 1) * page_size;
    const body: PolicyEventPage = {
      policy_id,
      items: stream.slice(first, first + page_size).map(auditEvent),
      total: stream.length,
      page,
      page_size,
    };
    res.json(body);
  };
