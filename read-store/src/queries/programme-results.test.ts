import { programmeResults } from '@cropcover/domain';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateReadModels } from '../migrations/migrate-read-models';
import type { ReadModels } from '../read-models';
import { loadPeriodFigures } from './programme-results';

const policy = (
  policyId: string,
  issuedOn: string,
  premium: number,
  claims: number,
  releasedReason: string | null = null,
) => ({
  policy_id: policyId,
  programme_id: 'prog-1',
  issued_on: issuedOn,
  sum_insured_minor: 100_000_000,
  premium_minor: premium,
  claims_minor: claims,
  claims_revision: 0,
  released_reason: releasedReason,
});

const treaty = (
  treatyId: string,
  order: number,
  type: string,
  from: string,
  to: string,
  figures: [number, number, number],
) => ({
  treaty_id: treatyId,
  programme_id: 'prog-1',
  organization_id: 'org-1',
  reinsurer_organization_id: null,
  type,
  terms: JSON.stringify({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 }),
  period_from: from,
  period_to: to,
  inurance_order: order,
  bound_at: '2026-01-02T00:00:00.000Z',
  ceded_premium_minor: figures[0],
  ceding_commission_minor: figures[1],
  recoveries_minor: figures[2],
  stream_revision: 0,
});

describe('results per programme and period', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('read_store_programme_results');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateReadModels(db);
    await db
      .insertInto('programme_policies')
      .values([
        policy('p-1', '2026-02-01', 6_000_000, 9_000_000),
        policy('p-2', '2026-11-30', 4_000_000, 6_000_000, 'closed'),
        policy('p-3', '2026-03-01', 1_000_000, 0, 'lapsed'),
        policy('p-4', '2025-12-31', 5_000_000, 5_000_000),
      ])
      .execute();
    await db
      .insertInto('treaties')
      .values([
        treaty('qs', 1, 'quota_share', '2026-01-01', '2026-12-31', [7_500_000, 0, 11_250_000]),
        treaty('sl', 2, 'stop_loss', '2026-01-01', '2026-12-31', [0, 0, 1_000_000]),
        treaty('old', 3, 'quota_share', '2025-01-01', '2025-12-31', [1, 1, 1]),
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('G3 through the read models: net premium 2,500,000, net claims 2,750,000 — lapses and other periods left out', async () => {
    const period = { from: '2026-01-01', to: '2026-12-31' };
    const results = programmeResults('prog-1', 'JPY', period, await loadPeriodFigures(db, 'prog-1', period));
    expect(results).toEqual({
      programme_id: 'prog-1',
      currency: 'JPY',
      period,
      gross_premium: 10_000_000,
      gross_claims: 15_000_000,
      treaties: [
        {
          treaty_id: 'qs',
          type: 'quota_share',
          ceded_premium: 7_500_000,
          ceding_commission: 0,
          recoveries: 11_250_000,
        },
        { treaty_id: 'sl', type: 'stop_loss', ceded_premium: 0, ceding_commission: 0, recoveries: 1_000_000 },
      ],
      net_premium: 2_500_000,
      net_claims: 2_750_000,
    });
  });
});
