import type { StreamSnapshot } from '@cropcover/application';
import { type Policy, policyFromSnapshot, policySnapshotOf } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

/** A policy's stream as a round left it, to be kept as its snapshot. */
export interface PolicyAtRevision {
  readonly policyId: string;
  readonly snapshot: StreamSnapshot<Policy>;
  /** The revision of the snapshot the round loaded from, if any: it is replaced whatever its revision. */
  readonly replaces: number | undefined;
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
 *  monitors that finished the same policy, the later revision stays, whoever writes last. Whatever its
 *  revision, a row is replaced when it is still the one the round loaded from (the round may have found
 *  it ahead of the log), or of another state version, or not matching its digest. */
export const keepPolicySnapshots = async (
  db: Kysely<ReadModels>,
  policies: readonly PolicyAtRevision[],
): Promise<void> => {
  if (policies.length === 0) return;
  // One JSON parameter: node-postgres escapes text arrays character by character (a profile showed it).
  const rows = policies.map((policy) => {
    const { policyId, snapshot } = policy;
    const encoded = policySnapshotOf(snapshot.state);
    return {
      policy_id: policyId,
      stream_revision: snapshot.revision,
      position_commit: snapshot.position.commit.toString(),
      position_prepare: snapshot.position.prepare.toString(),
      state_version: encoded.stateVersion,
      state: encoded.state,
      digest: encoded.digest,
      owner_farmer_id: snapshot.state.status === 'not_issued' ? null : (snapshot.state.issued.owner_farmer_id ?? null),
      replaces: policy.replaces ?? null,
    };
  });
  await sql`
    with incoming as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as snapshot(policy_id text,
        stream_revision integer, position_commit numeric, position_prepare numeric, state_version integer,
        state text, digest text, owner_farmer_id text, replaces integer))
    insert into policy_snapshots
      (policy_id, stream_revision, position_commit, position_prepare, state_version, state, digest, owner_farmer_id)
    select policy_id, stream_revision, position_commit, position_prepare, state_version, state, digest, owner_farmer_id
    from incoming
    on conflict (policy_id) do update set
      stream_revision = excluded.stream_revision,
      position_commit = excluded.position_commit,
      position_prepare = excluded.position_prepare,
      state_version = excluded.state_version,
      state = excluded.state,
      digest = excluded.digest,
      owner_farmer_id = excluded.owner_farmer_id
    where policy_snapshots.stream_revision < excluded.stream_revision
      or policy_snapshots.stream_revision = (
        select replaces from incoming where incoming.policy_id = excluded.policy_id)
      or policy_snapshots.state_version <> excluded.state_version
      or policy_snapshots.digest <> 'sha256:' || encode(sha256(convert_to(policy_snapshots.state, 'UTF8')), 'hex')`.execute(
    db,
  );
};

/** Drops the snapshots of these farmers' policies (their erasure, SPEC §6): the state holds the farm name
 *  opened with a key that is gone. A cache of the log, so the next round replays the stream, where the
 *  name now reads erased. */
export const dropSnapshotsOfFarmers = async (db: Kysely<ReadModels>, farmerIds: readonly string[]): Promise<void> => {
  if (farmerIds.length === 0) return;
  await db.deleteFrom('policy_snapshots').where('owner_farmer_id', 'in', farmerIds).execute();
};
