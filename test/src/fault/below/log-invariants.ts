import {
  createEventStore,
  type GlobalPosition,
  isAtOrAfter,
  type RecordedEvent,
  readLeavesInCommitOrder,
  readStoredEventsAt,
} from '@cropcover/eventstore';
import { positionFromColumns } from '@cropcover/read-store';
import { eventLeafHash, GENESIS_PREV, MemoryTree } from '@cropcover/verifiable-log';
import type pg from 'pg';
import { apiClient } from '../../support/api-client';
import type { WebhookReceiver } from '../../support/webhook-receiver';
import { insurer, type Told } from './insurance-workload';

// The invariants of SPEC §10, checked from outside once a fault has passed: the log and the tables as
// PostgreSQL holds them, the signed checkpoint as the query API serves it, the webhooks as a receiver
// got them. Each check returns what it found wrong, so a scenario's table can say how many.

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Every event of the log, in order. */
export const wholeLog = async (pool: pg.Pool): Promise<RecordedEvent[]> => {
  const eventStore = createEventStore({ pool });
  const events: RecordedEvent[] = [];
  for (let batch = await eventStore.readAll('start', 5_000); batch.length > 0; ) {
    events.push(...batch);
    batch = await eventStore.readAll(batch.at(-1)!.position, 5_000);
  }
  return events;
};

type Data = RecordedEvent & { data: Record<string, any> };
const ofType = (log: readonly RecordedEvent[], type: string) => log.filter((event) => event.type === type) as Data[];
const doubledOf = (values: readonly string[]): string[] => {
  const seen = new Set<string>();
  return values.filter((value) => seen.has(value) || !seen.add(value));
};

/** Acknowledged writes missing from the log, and writes the log holds twice. */
export const lostAndDoubled = (log: readonly RecordedEvent[], told: Told) => {
  const farmsRegistered = ofType(log, 'FarmRegistered');
  const farms = new Set(farmsRegistered.map((event) => event.data.farm_id));
  const issued = new Set(ofType(log, 'PolicyIssued').map((event) => event.data.policy_id));
  const paid = new Map(ofType(log, 'PayoutApproved').map((event) => [event.data.policy_id, event.data.amount_minor]));
  return {
    acknowledged: told.farms.length + told.policies.length + told.payouts.length,
    lost: [
      ...told.farms.filter((farm) => !farms.has(farm.farmId)).map((farm) => `farm ${farm.name}`),
      ...told.policies.filter((policy) => !issued.has(policy.policyId)).map((policy) => `policy ${policy.policyId}`),
      ...told.payouts
        .filter((payout) => paid.get(payout.policyId) !== payout.amountMinor)
        .map((payout) => `payout of ${payout.policyId}`),
    ],
    doubled: [
      // A farm's name is sealed personal data: an owner holding more farms than they asked for is a double.
      ...[...told.farmCreates]
        .filter(
          ([owner, asked]) => farmsRegistered.filter((event) => event.data.owner_subject === owner).length > asked,
        )
        .map(([owner]) => `farms of ${owner}`),
      ...doubledOf(ofType(log, 'FieldRegistered').map((event) => `field of ${event.data.farm_id}`)),
      ...doubledOf(ofType(log, 'PolicyIssued').map((event) => `policy on ${event.data.field_id}`)),
      ...doubledOf(ofType(log, 'PayoutApproved').map((event) => `payout of ${event.data.policy_id}`)),
    ],
  };
};

/** Breaks of the audit chain: an event whose leaf does not hash from its stored texts, a `prev` that is
 *  not its stream's previous leaf, a tree leaf that is not the log's, and a signed checkpoint whose root
 *  is not the root of the log's first leaves. */
export const auditChainBreaks = async (pool: pg.Pool, log: readonly RecordedEvent[], queryApiUrl: string) => {
  const breaks: string[] = [];
  const stored = await readStoredEventsAt(
    pool,
    log.map((event) => ({ stream: event.streamId, revision: event.revision })),
  );
  if (stored.length !== log.length) breaks.push(`${log.length - stored.length} events have no stored texts`);
  const lastLeaf = new Map<string, Uint8Array>();
  for (const event of [...stored].sort((a, b) => a.revision - b.revision)) {
    const place = `${event.stream}@${event.revision}`;
    if (hex(eventLeafHash(event)) !== hex(event.leafHash)) breaks.push(`${place}: leaf does not hash from its texts`);
    if (hex(event.prev) !== hex(lastLeaf.get(event.stream) ?? GENESIS_PREV)) breaks.push(`${place}: prev broken`);
    lastLeaf.set(event.stream, event.leafHash);
  }
  const leaves = await readLeavesInCommitOrder(pool, 'start', log.length + 1);
  const tree = new MemoryTree(leaves.map((leaf) => leaf.leafHash));
  if (tree.size !== log.length) breaks.push(`the tree has ${tree.size} leaves, the log ${log.length} events`);
  const latest = await apiClient(queryApiUrl).get('/audit/checkpoints/latest', insurer);
  if (latest.status !== 200) breaks.push(`no signed checkpoint: ${latest.status} ${JSON.stringify(latest.body)}`);
  else if (latest.body.size > tree.size) breaks.push(`checkpoint of ${latest.body.size} beyond the log's ${tree.size}`);
  else if (Buffer.from(tree.root(latest.body.size)).toString('base64') !== latest.body.root)
    breaks.push(`checkpoint of ${latest.body.size} signs a root the log does not have`);
  return breaks;
};

/** The consumers of the log still behind its head: each checkpointed reader (projections, the webhook
 *  delivery recorder) and the audit integrator's tree. Empty once every one has resumed and caught up. */
export const consumersBehind = async (pool: pg.Pool, head: GlobalPosition, logLength: number) => {
  const { rows } = await pool.query<{ name: string; commit_position: string; prepare_position: string }>(
    'select name, commit_position::text, prepare_position from projection_checkpoints',
  );
  const behind = rows
    .filter((row) => !isAtOrAfter(positionFromColumns(row.commit_position, row.prepare_position), head))
    .map((row) => row.name);
  const { rows: tree } = await pool.query<{ size: string }>('select count(*)::text as size from audit_leaves');
  if (Number(tree[0]?.size ?? 0) < logLength) behind.push(`audit tree at ${tree[0]?.size} of ${logLength}`);
  return behind;
};

/** Breaches with a payout not delivered to a subscription made before them, deliveries the receiver
 *  took more than once (one webhook-id, one path), and webhook-ids that are no breach's event id (a
 *  breach sent again under another id, which no receiver could tell from a new one). */
export const webhookFindings = (
  log: readonly RecordedEvent[],
  receiver: WebhookReceiver,
  subscriptionPaths: readonly string[],
) => {
  const subscribedAt = new Map(
    ofType(log, 'WebhookSubscriptionCreated').map((event) => [new URL(event.data.url).pathname, log.indexOf(event)]),
  );
  const breaches = ofType(log, 'TriggerBreached').filter((event) => event.data.payout !== null);
  const missing: string[] = [];
  const doubled: string[] = [];
  const breachIds = new Set(ofType(log, 'TriggerBreached').map((event) => event.metadata.event_id as string));
  const strangers: string[] = [];
  for (const path of subscriptionPaths) {
    const ids = receiver.received(path).map((request) => request.headers['webhook-id'] ?? '');
    doubled.push(...doubledOf(ids).map((id) => `${path} ${id}`));
    strangers.push(...ids.filter((id) => !breachIds.has(id)).map((id) => `${path} ${id}`));
    const got = new Set(ids);
    for (const breach of breaches)
      if ((subscribedAt.get(path) ?? Infinity) < log.indexOf(breach) && !got.has(breach.metadata.event_id as string))
        missing.push(`${path} ${breach.metadata.event_id}`);
  }
  return { breaches: breaches.length, missing, doubled, strangers };
};
