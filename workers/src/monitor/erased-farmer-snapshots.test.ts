import { randomUUID } from 'node:crypto';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErasedFarmerSnapshots, startErasedFarmerSnapshots } from './erased-farmer-snapshots';

// Issue 34: the monitor owns its snapshots, so it is the monitor that drops those of an erased farmer's
// policies, by their owner, as it reads the erasure from the log.

const snapshotOf = (policyId: string, owner: string | null) => ({
  policy_id: policyId,
  stream_revision: 1,
  position_commit: '1',
  position_prepare: '1',
  state_version: 5,
  state: JSON.stringify({ status: 'active', issued: { farm_name: `Shamba of ${owner}` } }),
  digest: 'sha256:0',
  owner_farmer_id: owner,
});

describe("the monitor's reaction to an erasure", () => {
  let t: ProjectorTestDatabase;
  let follower: ErasedFarmerSnapshots;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('erased_farmer_snapshots');
    follower = await startErasedFarmerSnapshots({ eventStore: t.eventStore, db: t.db, logger: t.logger });
  });
  afterAll(async () => {
    await follower?.stop();
    await t?.close();
  });

  it("drops the snapshots of the erased farmer's policies and keeps everyone else's", async () => {
    await t.db
      .insertInto('policy_snapshots')
      .values([
        snapshotOf('p-erased-1', 'farmer-1'),
        snapshotOf('p-erased-2', 'farmer-1'),
        snapshotOf('p-kept', 'farmer-2'),
        snapshotOf('p-unowned', null),
      ])
      .execute();
    await t.eventStore.appendToStreams([
      {
        streamId: 'farmer-farmer-1',
        expected: 'any',
        events: [
          {
            type: 'FarmerErased',
            data: { farmer_id: 'farmer-1', erased_at: '2026-03-01T00:00:00.000Z', erased_by: 'farmer' },
            metadata: {
              event_id: randomUUID(),
              occurred_at: '2026-03-01T00:00:00.000Z',
              actor: 'erasure-test',
              organization_id: null,
              correlation_id: randomUUID(),
              causation_id: null,
              schema_version: 1,
              platform_version: '0.0.0-test',
            },
          },
        ],
      },
    ]);
    const kept = async () =>
      (await t.db.selectFrom('policy_snapshots').select('policy_id').orderBy('policy_id').execute()).map(
        (row) => row.policy_id,
      );
    await expect.poll(kept, { timeout: 10_000 }).toEqual(['p-kept', 'p-unowned']);
  });
});
