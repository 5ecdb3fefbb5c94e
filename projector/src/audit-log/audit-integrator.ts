import { type LogLeaf, readLeavesInCommitOrder } from '@cropcover/eventstore';
import { MARK_CHECKPOINT_PUBLISHED } from '@cropcover/read-store';
import { type Clock, type Logger, pauseUnlessAborted } from '@cropcover/runtime';
import {
  type NoteSigner,
  type SignedCheckpoint,
  type Subtree,
  signCheckpoint,
  subtreesOf,
  TreeFrontier,
} from '@cropcover/verifiable-log';
import type pg from 'pg';
import type { CheckpointSink } from './checkpoint-sink';
import type { CheckpointSinkHealth } from './checkpoint-sink-health';

// The one integrator (SPEC §7 Audit): off the append path, it takes the log's leaves in the order $all
// commits them (readLeavesInCommitOrder waits for a late commit rather than pass it), appends them to the
// RFC 6962 tree, keeps every complete subtree, and signs a checkpoint every interval or so many leaves.
// Each batch runs in a transaction holding an advisory lock, so two processes running it never both
// extend the tree; the tree's size and frontier are read again under the lock.

const INTEGRATOR_LOCK = 'cropcover.audit.integrator';

export interface AuditIntegratorOptions {
  readonly pool: pg.Pool;
  readonly signer: NoteSigner;
  /** The checkpoint origin, e.g. `cropcover.example/audit/v1`. */
  readonly origin: string;
  readonly sink: CheckpointSink;
  /** Told of each publication the sink took or refused, so a failing sink is loud. */
  readonly sinkHealth?: CheckpointSinkHealth;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Sign when the newest checkpoint is this old… */
  readonly checkpointEveryMs?: number;
  /** …or this many leaves behind. */
  readonly checkpointEveryLeaves?: number;
  readonly batchSize?: number;
  /** Pause when a batch found nothing new. */
  readonly idleMs?: number;
}

export interface AuditIntegrator {
  /** Integrates one batch and signs a checkpoint if one is due; answers how many leaves it added. */
  integrateOnce(): Promise<number>;
  /** Publishes checkpoints signed but not yet in the sink; a refusal of the sink is a SinkRefusal. */
  publishPending(): Promise<void>;
}

/** The sink refused a checkpoint; the sink's health has reported it. */
export class SinkRefusal extends Error {
  constructor(readonly refusal: unknown) {
    super(`the checkpoint sink refused a checkpoint: ${refusal instanceof Error ? refusal.message : String(refusal)}`);
    this.name = 'SinkRefusal';
  }
}

interface TreeState {
  readonly frontier: TreeFrontier;
  readonly after: LogLeaf['position'] | 'start';
}

const loadTree = async (client: pg.PoolClient): Promise<TreeState> => {
  const { rows } = await client.query<{ leaf_index: string; position_commit: string; position_prepare: string }>(
    'select leaf_index, position_commit, position_prepare from audit_leaves order by leaf_index desc limit 1',
  );
  const last = rows[0];
  if (!last) return { frontier: new TreeFrontier(), after: 'start' };
  const size = Number(last.leaf_index) + 1;
  const ids = subtreesOf(0, size);
  const { rows: nodes } = await client.query<{ level: number; node_index: string; hash: Buffer }>(
    'select level, node_index, hash from audit_tree where (level, node_index) in (select * from unnest($1::smallint[], $2::bigint[]))',
    [ids.map((id) => id.level), ids.map((id) => id.index)],
  );
  const edge: Subtree[] = ids.map((id) => {
    const node = nodes.find((row) => row.level === id.level && Number(row.node_index) === id.index);
    if (!node) throw new Error(`the audit tree lacks its subtree ${id.level}/${id.index} at size ${size}`);
    return { ...id, hash: new Uint8Array(node.hash) };
  });
  return {
    frontier: new TreeFrontier(size, edge),
    after: { commit: BigInt(last.position_commit), prepare: BigInt(last.position_prepare) },
  };
};

const saveLeaves = async (client: pg.PoolClient, firstIndex: number, leaves: readonly LogLeaf[], nodes: Subtree[]) => {
  await client.query(
    `insert into audit_leaves (leaf_index, position_commit, position_prepare, stream_id, stream_revision,
       event_id, event_type, prev, data_hash, metadata_hash)
     select * from unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::text[], $5::int[],
       $6::uuid[], $7::text[], $8::bytea[], $9::bytea[], $10::bytea[])`,
    [
      leaves.map((_, i) => firstIndex + i),
      leaves.map((leaf) => leaf.position.commit.toString()),
      leaves.map((leaf) => leaf.position.prepare.toString()),
      leaves.map((leaf) => leaf.stream),
      leaves.map((leaf) => leaf.revision),
      leaves.map((leaf) => leaf.envelope.eventId),
      leaves.map((leaf) => leaf.envelope.type),
      leaves.map((leaf) => Buffer.from(leaf.envelope.prev, 'base64')),
      leaves.map((leaf) => Buffer.from(leaf.envelope.dataHash, 'base64')),
      leaves.map((leaf) => Buffer.from(leaf.envelope.metaHash, 'base64')),
    ],
  );
  await client.query(
    'insert into audit_tree (level, node_index, hash) select * from unnest($1::smallint[], $2::bigint[], $3::bytea[])',
    [nodes.map((node) => node.level), nodes.map((node) => node.index), nodes.map((node) => Buffer.from(node.hash))],
  );
};

const lastCheckpoint = async (client: pg.PoolClient): Promise<{ size: number; signedAt: Date } | undefined> => {
  const { rows } = await client.query<{ tree_size: string; signed_at: Date }>(
    'select tree_size, signed_at from audit_checkpoints order by tree_size desc limit 1',
  );
  return rows[0] && { size: Number(rows[0].tree_size), signedAt: rows[0].signed_at };
};

/** Records the key that signs from now on, and closes the validity of any key it replaced (rotation). */
const publishSigningKey = async (client: pg.PoolClient, signer: NoteSigner, now: Date) => {
  const { vkey } = signer.verifier;
  await client.query(
    `insert into audit_signing_keys (vkey, name, key_id, valid_from) values ($1, $2, $3, $4)
     on conflict (vkey) do nothing`,
    [vkey, signer.name, vkey.split('+')[1], now],
  );
  await client.query('update audit_signing_keys set valid_to = $2 where vkey <> $1 and valid_to is null', [vkey, now]);
};

export const createAuditIntegrator = (options: AuditIntegratorOptions): AuditIntegrator => {
  const { pool, signer, origin, sink, clock } = options;
  const everyMs = options.checkpointEveryMs ?? 2_000;
  const everyLeaves = options.checkpointEveryLeaves ?? 1_000;
  const batchSize = options.batchSize ?? 2_000;

  const integrateOnce = async (): Promise<number> => {
    const client = await pool.connect();
    let failed = false;
    try {
      await client.query('begin');
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [INTEGRATOR_LOCK]);
      const { frontier, after } = await loadTree(client);
      const leaves = await readLeavesInCommitOrder(pool, after, batchSize);
      const firstIndex = frontier.size;
      const nodes = leaves.flatMap((leaf) => frontier.append(leaf.leafHash));
      if (leaves.length > 0) await saveLeaves(client, firstIndex, leaves, nodes);
      const last = await lastCheckpoint(client);
      const now = clock.now();
      const due =
        frontier.size > (last?.size ?? 0) &&
        (!last || frontier.size - last.size >= everyLeaves || now.getTime() - last.signedAt.getTime() >= everyMs);
      if (due) {
        const checkpoint = signCheckpoint({ origin, size: frontier.size, root: frontier.root() }, [signer]);
        await client.query('insert into audit_checkpoints (tree_size, root, note, signed_at) values ($1, $2, $3, $4)', [
          checkpoint.size,
          Buffer.from(checkpoint.root),
          checkpoint.note,
          now,
        ]);
        await publishSigningKey(client, signer, now);
      }
      await client.query('commit');
      return leaves.length;
    } catch (error) {
      failed = true;
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release(failed);
    }
  };

  const publishPending = async (): Promise<void> => {
    const { rows } = await pool.query<{ tree_size: string; root: Buffer; note: string }>(
      'select tree_size, root, note from audit_checkpoints where published_at is null order by tree_size',
    );
    for (const row of rows) {
      const checkpoint: SignedCheckpoint = {
        origin,
        size: Number(row.tree_size),
        root: new Uint8Array(row.root),
        note: row.note,
      };
      try {
        await sink.publish(checkpoint);
      } catch (error) {
        await options.sinkHealth?.failed(error);
        throw new SinkRefusal(error);
      }
      await pool.query(MARK_CHECKPOINT_PUBLISHED, [row.tree_size, clock.now()]);
    }
    if (rows.length > 0) await options.sinkHealth?.succeeded();
  };

  return { integrateOnce, publishPending };
};

/** Runs the integrator until stopped: a batch, its checkpoint's publication, and a pause when idle. */
export const startAuditIntegrator = (options: AuditIntegratorOptions): { stop(): Promise<void> } => {
  const integrator = createAuditIntegrator(options);
  const stopping = new AbortController();
  const idleMs = options.idleMs ?? 200;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        const added = await integrator.integrateOnce();
        await integrator.publishPending();
        if (added === 0) await pauseUnlessAborted(idleMs, stopping.signal);
      } catch (error) {
        // A refusing sink is reported by its health, once per reason: the tree goes on growing meanwhile.
        if (!(error instanceof SinkRefusal))
          options.logger?.error({ err: error }, 'audit integration failed; retrying');
        await pauseUnlessAborted(1_000, stopping.signal);
      }
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      await loop;
    },
  };
};
