import type { ReinsuranceEvent } from '@cropcover/contracts';
import {
  bindTreaty,
  evolveReinsuranceLedger,
  initialReinsuranceLedger,
  type ReinsuranceLedger,
  recordLoss,
  recordPremium,
  reinsuranceStream,
} from '@cropcover/domain';
import { STATION_B } from '@cropcover/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { rebuildProjections } from '../rebuild';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { readWholeLog } from '../testing/visible-log';
import { reinsuranceProjection } from './reinsurance-projection';

const insurer = { subject: 'underwriter', organizationId: 'org-1', isAdmin: false };
const programme = { programmeId: 'prog-1', organizationId: 'org-1', currency: 'KES' };
const now = new Date('2026-03-01T09:00:00.000Z');

describe('reinsurance projection', () => {
  let t: ProjectorTestDatabase;
  let count = 0;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_reinsurance');
    let ledger: ReinsuranceLedger = initialReinsuranceLedger;
    const events: ReinsuranceEvent[] = [];
    const decide = (decided: ReinsuranceEvent[]) => {
      events.push(...decided);
      ledger = decided.reduce(evolveReinsuranceLedger, ledger);
    };
    decide(
      bindTreaty(
        {
          actor: insurer,
          treatyId: 'qs',
          programme,
          request: {
            type: 'quota_share',
            cession_rate: 0.75,
            ceding_commission: 0.2,
            reinsurer_organization_id: 'gic-re',
          },
          now,
        },
        ledger,
      ),
    );
    decide(
      bindTreaty(
        { actor: insurer, treatyId: 'xl', programme, request: { type: 'cat_xl', retention: 1_000, limit: 5_000 }, now },
        ledger,
      ),
    );
    const movement = { programmeId: 'prog-1', issuedOn: '2026-02-01', now };
    decide(
      recordPremium(
        { ...movement, sourceEvent: 'issue-p-1', policyId: 'p-1', policyRevision: 0, premiumMinor: 400_000 },
        ledger,
      ),
    );
    for (const [revision, lossMinor] of [
      [3, 333],
      [5, 666],
      [7, 1_000_000],
    ] as const) {
      decide(
        recordLoss(
          {
            ...movement,
            sourceEvent: `payout-${revision}`,
            policyId: 'p-1',
            policyRevision: revision,
            peril: 'storm',
            zone: STATION_B,
            lossMinor,
            occurredAt: '2026-04-02T00:00:00.000Z',
            season: '2026',
          },
          ledger,
        ),
      );
    }
    await t.eventStore.append(
      reinsuranceStream('prog-1'),
      events.map((event) => newEvent(event.type, event.data)),
      'no_stream',
    );
    count = events.length;
  });
  afterAll(() => t?.close());

  const dump = async () => ({
    treaties: await t.db.selectFrom('treaties').selectAll().orderBy('inurance_order').execute(),
    ledger: await t.db.selectFrom('reinsurance_ledger').selectAll().orderBy('stream_revision').execute(),
  });

  it('shows each treaty’s totals and one ledger row per entry, in the stream’s order', async () => {
    await applyBatch(t.db, reinsuranceProjection, await readWholeLog(t.eventStore, count));
    const { treaties, ledger } = await dump();
    expect(
      treaties.map(
        ({
          treaty_id,
          type,
          reinsurer_organization_id,
          ceded_premium_minor,
          ceding_commission_minor,
          recoveries_minor,
        }) => [
          treaty_id,
          type,
          reinsurer_organization_id,
          ceded_premium_minor,
          ceding_commission_minor,
          recoveries_minor,
        ],
      ),
    ).toEqual([
      ['qs', 'quota_share', 'gic-re', 300_000n, 60_000n, 750_000n],
      // The XL sees the storm event net of the quota share: 250,000 − 100,000 retained = 150,000, within 500,000.
      ['xl', 'cat_xl', null, 0n, 0n, 150_000n],
    ]);
    expect(
      ledger.map(({ treaty_id, kind, gross_minor, ceded_minor, cumulative_ceded_minor, net_minor }) => [
        treaty_id,
        kind,
        gross_minor,
        ceded_minor,
        cumulative_ceded_minor,
        net_minor,
      ]),
    ).toEqual([
      ['qs', 'premium', 400_000n, 300_000n, 300_000n, 100_000n],
      ['qs', 'claim', 333n, 250n, 250n, 83n],
      ['qs', 'claim', 333n, 250n, 500n, 83n],
      ['qs', 'claim', 999_334n, 749_500n, 750_000n, 249_834n],
      ['xl', 'recovery', 0n, 150_000n, 150_000n, -150_000n],
    ]);
  });

  it('changes nothing when the log is applied again, and rebuilds to the same rows', async () => {
    const before = await dump();
    await applyBatch(t.db, reinsuranceProjection, await readWholeLog(t.eventStore, count));
    expect(await dump()).toEqual(before);
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [reinsuranceProjection] });
    expect(await dump()).toEqual(before);
  });
});
