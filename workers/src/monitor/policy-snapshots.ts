import type { StreamSnapshot } from '@cropcover/application';
import { type Policy, policyFromSnapshot, policySnapshotOf } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

/** A policy's stream as a round left it, to be kept as its snapshot. */
export interface PolicyAtRevision {
  readonly policyId: string;
  readonly snapshot: StreamSnapshot<Policy>;
}

/** The snapshots of these policies that can be believed, by policy id: one of another state version or
 *  not matching its digest is left out, and the policy is loaded from its whole stream. */
export const readPolicySnapshots = async (
  db: Kysely<ReadModels>,
  policyIds: readonly string[],
): Promise<Map<string, StreamSnapshot<Policy>>> => {
  const snapshots = new Map<string, StreamSnapshot<Policy>>();
  if (policyIds.length === 0) return snapshots;
  const rows = await db.selectFrom('policy_snapshots').selectAll().where('policy_id', 'in', policyIds).execute();
  for (const row of rows) {
    const state = policyFromSnapshot({ stateVersion: row.state_version, state: row.state, digest: row.digest });
    if (state === undefined) continue;
    snapshots.set(row.policy_id, {
      state,
      revision: row.stream_revision,
      position: { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) },
    });
  }
  return snapshots;
};

/** Keeps these states as the policies' snapshots, in one statement. A snapshot only moves forward: of two
 *  monitors that finished the same policy, the later revision stays, whoever writes last; a row of another
 *  state version, or one not matching its digest, is replaced whatever its revision. */
export const keepPolicySnapshots = async (
  db: Kysely<ReadModels>,
  policies: readonly PolicyAtRevision[],
): Promise<void> => {
  if (policies.length === 0) return;
  const encoded = policies.map(({ snapshot }) => policySnapshotOf(snapshot.state));
  await sql`
    insert into policy_snapshots
      (policy_id, stream_revision, position_commit, position_prepare, state_version, state, digest)
    select * from unnest(
      ${policies.map(({ policyId }) => policyId)}::text[],
      ${policies.map(({ snapshot }) => snapshot.revision)}::integer[],
      ${policies.map(({ snapshot }) => snapshot.position.commit.toString())}::numeric[],
      ${policies.map(({ snapshot }) => snapshot.position.prepare.toString())}::numeric[],
      ${encoded.map((snapshot) => snapshot.stateVersion)}::integer[],
      ${encoded.map((snapshot) => snapshot.state)}::text[],
      ${encoded.map((snapshot) => snapshot.digest)}::text[])
    on conflict (policy_id) do update set
      stream_revision = excluded.stream_revision,
      position_commit = excluded.position_commit,
      position_prepare = excluded.position_prepare,
      state_version = excluded.state_version,
      state = excluded.state,
      digest = excluded.digest
    where policy_snapshots.stream_revision < excluded.stream_revision
      or policy_snapshots.state_version <> excluded.state_version
      or policy_snapshots.digest <> 'sha256:' || encode(sha256(convert_to(policy_snapshots.state, 'UTF8')), 'hex')`.execute(
    db,
  );
};
