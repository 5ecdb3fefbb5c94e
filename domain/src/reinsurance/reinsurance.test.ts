import type { ReinsuranceEvent, TreatyBindRequest } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admin } from '../testing/actors';
import { deciderSpec } from '../testing/decider-spec';
import { insurer, otherInsurer } from '../testing/insured-farm';
import { CHIRPS_CELL_A, CHIRPS_CELL_B, STATION_B } from '../testing/programmes';
import { applyTreaties } from './apply-treaties';
import { bindTreaty } from './bind-treaty';
import { type RecordLoss, recordLoss, recordPremium } from './record-movements';
import { canSeeTreaty } from './reinsurance-access';
import {
  evolveReinsuranceLedger,
  initialReinsuranceLedger,
  type ReinsuranceLedger,
  subjectOf,
} from './reinsurance-ledger';
import { cupAndCap, requiredCollateral } from './risk-sharing';

const now = new Date('2026-03-01T09:00:00.000Z');
const programme = { programmeId: 'prog-1', organizationId: 'org-1', currency: 'KES' };
const period = { from: '2026-01-01', to: '2026-12-31' };

type DataOf = { [Event in ReinsuranceEvent as Event['type']]: Event['data'] };

/** A ledger built as the command side builds it: each decision's events folded in before the next. */
class LedgerStory {
  ledger: ReinsuranceLedger = initialReinsuranceLedger;
  readonly events: ReinsuranceEvent[] = [];
  private treaties = 0;

  decide(events: ReinsuranceEvent[]): ReinsuranceEvent[] {
    this.events.push(...events);
    this.ledger = events.reduce(evolveReinsuranceLedger, this.ledger);
    return events;
  }

  bind(request: TreatyBindRequest): string {
    this.treaties += 1;
    const treatyId = `treaty-${this.treaties}`;
    this.decide(bindTreaty({ actor: insurer, treatyId, programme, request: { period, ...request }, now }, this.ledger));
    return treatyId;
  }

  premium(policyId: string, premiumMinor: number, policyRevision = 0) {
    return this.decide(
      recordPremium(
        {
          programmeId: 'prog-1',
          sourceEvent: `${policyId}@${policyRevision}`,
          policyId,
          policyRevision,
          issuedOn: '2026-02-01',
          premiumMinor,
          now,
        },
        this.ledger,
      ),
    );
  }

  loss(loss: Partial<RecordLoss> & { policyId: string; lossMinor: number; policyRevision: number }) {
    return this.decide(
      recordLoss(
        {
          programmeId: 'prog-1',
          sourceEvent: `${loss.policyId}@${loss.policyRevision}`,
          issuedOn: '2026-02-01',
          peril: 'drought',
          zone: CHIRPS_CELL_A,
          occurredAt: '2026-07-31T00:00:00.000Z',
          season: '2026',
          now,
          ...loss,
        },
        this.ledger,
      ),
    );
  }

  of<Type extends keyof DataOf>(type: Type, events: readonly ReinsuranceEvent[] = this.events): DataOf[Type][] {
    return events.flatMap((event) => (event.type === type ? [event.data as unknown as DataOf[Type]] : []));
  }
}

describe('binding treaties', () => {
  const binding = deciderSpec(initialReinsuranceLedger, evolveReinsuranceLedger, bindTreaty);

  it('records the terms in minor units, the calendar year as the default period, in the order bound', () => {
    binding
      .given([])
      .when({
        actor: insurer,
        treatyId: 't-1',
        programme,
        request: { type: 'cat_xl', retention: 5_000, limit: 15_000 },
        now,
      })
      .thenEvents([
        {
          type: 'TreatyBound',
          data: {
            programme_id: 'prog-1',
            treaty_id: 't-1',
            organization_id: 'org-1',
            reinsurer_organization_id: null,
            currency: 'KES',
            period,
            inurance_order: 1,
            terms: { type: 'cat_xl', retention_minor: 500_000, limit_minor: 1_500_000, aggregate_limit_minor: null },
            bound_at: now.toISOString(),
          },
        },
      ]);
  });

  it('refuses a period overlapping another partly, another organization, and a treaty id twice', () => {
    const story = new LedgerStory();
    story.bind({ type: 'quota_share', cession_rate: 0.5, ceding_commission: 0 });
    expect(() =>
      bindTreaty(
        {
          actor: insurer,
          treatyId: 'other',
          programme,
          request: {
            type: 'quota_share',
            cession_rate: 0.5,
            ceding_commission: 0,
            period: { from: '2026-07-01', to: '2027-06-30' },
          },
          now,
        },
        story.ledger,
      ),
    ).toThrow(expect.objectContaining({ code: 'treaty_period_overlaps' }));
    binding
      .given(story.events)
      .when({
        actor: otherInsurer,
        treatyId: 't-9',
        programme,
        request: { type: 'quota_share', cession_rate: 0.5, ceding_commission: 0 },
        now,
      })
      .thenRefuses('not_found', 'programme_not_found');
    binding
      .given(story.events)
      .when({
        actor: insurer,
        treatyId: 'treaty-1',
        programme,
        request: { type: 'quota_share', cession_rate: 0.5, ceding_commission: 0 },
        now,
      })
      .thenRefuses('conflict', 'treaty_exists');
  });

  it('a treaty joining a period the ledger holds takes its share of the book at once', () => {
    const story = new LedgerStory();
    story.bind({ type: 'stop_loss', attachment: { amount: 1_000_000 }, limit: { amount: 1 } });
    story.loss({ policyId: 'p-1', lossMinor: 1_000, policyRevision: 3 });
    story.bind({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 });
    expect(story.of('CessionRecorded')).toMatchObject([
      { treaty_id: 'treaty-2', source_event: 'treaty:treaty-2', gross_minor: 1_000, ceded_minor: 750 },
    ]);
  });
});

describe('quota share with cumulative rounding (G1, acceptance test 8)', () => {
  it('cedes 250, 250, 250 of payouts 333, 333, 334 — not 250 + 250 + 251', () => {
    const story = new LedgerStory();
    story.bind({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 });
    story.loss({ policyId: 'p-1', lossMinor: 333, policyRevision: 3 });
    story.loss({ policyId: 'p-2', lossMinor: 333, policyRevision: 3 });
    story.loss({ policyId: 'p-1', lossMinor: 667, policyRevision: 5 });
    expect(
      story
        .of('CessionRecorded')
        .map(({ gross_minor, ceded_minor, cumulative_ceded_minor, net_minor }) => [
          gross_minor,
          ceded_minor,
          cumulative_ceded_minor,
          net_minor,
        ]),
    ).toEqual([
      [333, 250, 250, 83],
      [333, 250, 500, 83],
      [334, 250, 750, 84],
    ]);
  });

  it('a PayoutApproved handled again — the same level, or an older revision — records nothing', () => {
    const story = new LedgerStory();
    story.bind({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 });
    story.loss({ policyId: 'p-1', lossMinor: 333, policyRevision: 3 });
    story.loss({ policyId: 'p-1', lossMinor: 666, policyRevision: 5 });
    expect(story.loss({ policyId: 'p-1', lossMinor: 666, policyRevision: 5 })).toEqual([]);
    expect(story.loss({ policyId: 'p-1', lossMinor: 333, policyRevision: 3 })).toEqual([]);
  });

  it('cedes premium at issue with its commission, and gives it back when the policy lapses', () => {
    const story = new LedgerStory();
    story.bind({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0.25 });
    story.premium('p-1', 10_001, 0);
    story.premium('p-1', 0, 4);
    expect(
      story
        .of('PremiumCeded')
        .map(({ gross_minor, ceded_minor, ceding_commission_minor }) => [
          gross_minor,
          ceded_minor,
          ceding_commission_minor,
        ]),
    ).toEqual([
      [10_001, 7_501, 1_875],
      [-10_001, -7_501, -1_875],
    ]);
  });

  it('records nothing for a policy issued outside every treaty period', () => {
    const story = new LedgerStory();
    story.bind({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 });
    expect(story.loss({ policyId: 'p-1', lossMinor: 333, policyRevision: 3, issuedOn: '2025-12-31' })).toEqual([]);
  });
});

describe('stop-loss on the net (G2, G3, acceptance test 9)', () => {
  it('G2: 40% xs 110% of 1,000,000 recovers 0, 250,000, 400,000 as claims reach 900,000, 1,350,000, 1,700,000', () => {
    const story = new LedgerStory();
    story.bind({ type: 'stop_loss', attachment: { ratio: 1.1 }, limit: { ratio: 0.4 } });
    story.premium('p-1', 1_000_000);
    const recoveries = [900_000, 1_350_000, 1_700_000].map((claims, at) =>
      story
        .of('RecoveryRecorded', story.loss({ policyId: 'p-1', lossMinor: claims, policyRevision: at + 1 }))
        .map((entry) => entry.cumulative_recovery_minor),
    );
    expect(recoveries).toEqual([[], [250_000], [400_000]]);
    const { netLossMinor } = applyTreaties(
      story.ledger.treaties.map((treaty) => treaty.terms),
      subjectOf(story.ledger.periods.first()!),
    );
    expect(netLossMinor).toBe(1_300_000);
  });

  it('G3: quota share 75% then stop-loss 40% xs 110% of net premium: recovery 1,000,000, net claims 2,750,000', () => {
    const story = new LedgerStory();
    story.bind({ type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 });
    story.bind({ type: 'stop_loss', attachment: { ratio: 1.1 }, limit: { ratio: 0.4 } });
    story.premium('p-1', 10_000_000);
    story.loss({ policyId: 'p-1', lossMinor: 15_000_000, policyRevision: 2 });
    expect(story.of('CessionRecorded').map((entry) => entry.cumulative_ceded_minor)).toEqual([11_250_000]);
    expect(story.of('PremiumCeded').map((entry) => entry.cumulative_ceded_minor)).toEqual([7_500_000]);
    expect(story.of('RecoveryRecorded')).toMatchObject([
      {
        treaty_id: 'treaty-2',
        subject_minor: 3_750_000,
        attachment_minor: 2_750_000,
        limit_minor: 1_000_000,
        cumulative_recovery_minor: 1_000_000,
      },
    ]);
    const applied = applyTreaties(
      story.ledger.treaties.map((treaty) => treaty.terms),
      subjectOf(story.ledger.periods.first()!),
    );
    expect(applied).toMatchObject({ netPremiumMinor: 2_500_000, netLossMinor: 2_750_000 });
  });
});

describe('cat XL by event with an aggregate (G4, acceptance test 10)', () => {
  const storms = () => {
    const story = new LedgerStory();
    story.bind({ type: 'cat_xl', retention: 5_000, limit: 15_000, aggregate_limit: 20_000 });
    const storm = (policyId: string, lossMinor: number, occurredAt: string, policyRevision = 2) =>
      story.loss({ policyId, lossMinor, policyRevision, peril: 'storm', zone: STATION_B, occurredAt });
    return { story, storm };
  };

  it('recovers 700,000, 1,300,000 (the aggregate spent) and 0 of events of 1,200,000, 2,500,000, 800,000', () => {
    const { story, storm } = storms();
    storm('p-1', 1_200_000, '2026-03-10T00:00:00.000Z');
    storm('p-2', 2_500_000, '2026-04-10T00:00:00.000Z');
    storm('p-3', 800_000, '2026-05-10T00:00:00.000Z');
    expect(story.of('RecoveryRecorded').map((entry) => [entry.subject_minor, entry.delta_minor])).toEqual([
      [1_200_000, 700_000],
      [2_500_000, 1_300_000],
    ]);
  });

  it('a revision lowering event 2 to 1,500,000 records −300,000 on it and +300,000 on event 3', () => {
    const { story, storm } = storms();
    storm('p-1', 1_200_000, '2026-03-10T00:00:00.000Z');
    storm('p-2', 2_500_000, '2026-04-10T00:00:00.000Z');
    storm('p-3', 800_000, '2026-05-10T00:00:00.000Z');
    const revision = storm('p-2', 1_500_000, '2026-04-10T00:00:00.000Z', 5);
    const [, event2, event3] = [...story.ledger.periods.first()!.events.values()].map((event) => event.key);
    expect(
      story
        .of('RecoveryRecorded', revision)
        .map((entry) => [entry.cat_event, entry.delta_minor, entry.cumulative_recovery_minor]),
    ).toEqual([
      [event2, -300_000, 1_000_000],
      [event3, 300_000, 300_000],
    ]);
  });

  it('counts storms of one zone within 72 hours as one event, and a drought season of a zone as one', () => {
    const { story, storm } = storms();
    storm('p-1', 400_000, '2026-03-10T00:00:00.000Z');
    storm('p-2', 400_000, '2026-03-12T23:59:59.000Z');
    storm('p-3', 400_000, '2026-03-13T00:00:00.000Z');
    story.loss({
      policyId: 'p-4',
      lossMinor: 300_000,
      policyRevision: 2,
      zone: CHIRPS_CELL_B,
      occurredAt: '2026-06-01T00:00:00.000Z',
    });
    story.loss({
      policyId: 'p-5',
      lossMinor: 300_000,
      policyRevision: 2,
      zone: CHIRPS_CELL_B,
      occurredAt: '2026-09-01T00:00:00.000Z',
    });
    expect([...story.ledger.periods.first()!.events.values()].map((event) => event.lossMinor)).toEqual([
      800_000, 400_000, 600_000,
    ]);
  });
});

describe('the ledger adds up to the treaties applied to the totals (property)', () => {
  const treatyRequest = fc.oneof(
    fc.record({
      type: fc.constant('quota_share' as const),
      cession_rate: fc.integer({ min: 1, max: 1_000_000 }).map((ppm) => ppm / 1_000_000),
      ceding_commission: fc.integer({ min: 0, max: 400_000 }).map((ppm) => ppm / 1_000_000),
    }),
    fc.record({
      type: fc.constant('stop_loss' as const),
      attachment: fc.oneof(
        fc.record({ ratio: fc.integer({ min: 0, max: 2_000 }).map((n) => n / 1_000) }),
        fc.record({ amount: fc.integer({ min: 0, max: 50_000 }) }),
      ),
      limit: fc.oneof(
        fc.record({ ratio: fc.integer({ min: 0, max: 1_000 }).map((n) => n / 1_000) }),
        fc.record({ amount: fc.integer({ min: 0, max: 50_000 }) }),
      ),
    }),
    fc.record({
      type: fc.constant('cat_xl' as const),
      retention: fc.integer({ min: 0, max: 20_000 }),
      limit: fc.integer({ min: 1, max: 40_000 }),
      aggregate_limit: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: undefined }),
    }),
  );
  const movement = fc.record({
    kind: fc.constantFrom('premium', 'loss'),
    policy: fc.integer({ min: 1, max: 6 }),
    peril: fc.constantFrom('drought' as const, 'storm' as const),
    zone: fc.constantFrom(CHIRPS_CELL_A, STATION_B),
    day: fc.integer({ min: 1, max: 20 }),
    amount: fc.integer({ min: 0, max: 3_000_000 }),
  });

  it('per treaty, the sum of its entries equals the treaty applied to the final book', () => {
    fc.assert(
      fc.property(
        fc.array(treatyRequest, { minLength: 1, maxLength: 4 }),
        fc.array(movement, { maxLength: 40 }),
        (treaties, movements) => {
          const story = new LedgerStory();
          for (const request of treaties) story.bind(request as TreatyBindRequest);
          movements.forEach(({ kind, policy, peril, zone, day, amount }, revision) => {
            if (kind === 'premium') story.premium(`p-${policy}`, amount, revision);
            else
              story.loss({
                policyId: `p-${policy}`,
                lossMinor: amount,
                policyRevision: revision,
                peril,
                zone,
                occurredAt: `2026-06-${String(day).padStart(2, '0')}T00:00:00.000Z`,
              });
          });
          const book = story.ledger.periods.first()!;
          const { outcomes } = applyTreaties(
            story.ledger.treaties.map((treaty) => treaty.terms),
            subjectOf(book),
          );
          const sum = <Entry>(entries: Entry[], of: (entry: Entry) => number) =>
            entries.reduce((total, entry) => total + of(entry), 0);
          story.ledger.treaties.forEach(({ treatyId }, at) => {
            const outcome = outcomes[at]!;
            const mine = <Entry extends { treaty_id: string }>(entries: Entry[]) =>
              entries.filter((entry) => entry.treaty_id === treatyId);
            if (outcome.type === 'quota_share') {
              expect(sum(mine(story.of('CessionRecorded')), (entry) => entry.ceded_minor)).toBe(
                outcome.loss.cededMinor,
              );
              expect(sum(mine(story.of('PremiumCeded')), (entry) => entry.ceded_minor)).toBe(
                outcome.premium.cededMinor,
              );
            } else {
              expect(sum(mine(story.of('RecoveryRecorded')), (entry) => entry.delta_minor)).toBe(outcome.recoveryMinor);
            }
          });
          expect(book.grossLossMinor).toBe(sum([...book.losses.values()], (loss) => loss.minor));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('who reads a treaty', () => {
  const treaty = { organization_id: 'org-1', reinsurer_organization_id: 'gic-re' };
  const reinsurer = { subject: 'r', organizationId: 'gic-re', isAdmin: false, roles: ['reinsurer'] };

  it('its cedant, its reinsurer and admins; not another reinsurer, nor its reinsurer’s users without the role', () => {
    expect(canSeeTreaty({ ...insurer, roles: ['insurer'] }, treaty)).toBe(true);
    expect(canSeeTreaty(reinsurer, treaty)).toBe(true);
    expect(canSeeTreaty({ ...admin, roles: [] }, treaty)).toBe(true);
    expect(canSeeTreaty({ ...reinsurer, organizationId: 'swiss-re' }, treaty)).toBe(false);
    expect(canSeeTreaty({ ...reinsurer, roles: ['insurer'] }, treaty)).toBe(false);
    expect(canSeeTreaty(reinsurer, { ...treaty, reinsurer_organization_id: null })).toBe(false);
  });
});

describe('risk sharing outside treaties (G5, G6)', () => {
  it('G5 cup-and-cap on GP 10,000,000', () => {
    const gp = 10_000_000;
    expect([4_500_000, 9_000_000, 13_000_000].map((claims) => cupAndCap({ cup: 0.8, cap: 1.1 }, gp, claims))).toEqual([
      { refundMinor: 3_500_000, statePaysMinor: 0 },
      { refundMinor: 0, statePaysMinor: 0 },
      { refundMinor: 0, statePaysMinor: 2_000_000 },
    ]);
    expect(cupAndCap({ cup: 0.6, cap: 1.3 }, gp, 4_500_000)).toEqual({ refundMinor: 1_500_000, statePaysMinor: 0 });
    expect(cupAndCap({ cup: 0.6, cap: 1.3 }, gp, 14_000_000)).toEqual({ refundMinor: 0, statePaysMinor: 1_000_000 });
  });

  it('G6 GIF collateral: sum insured 1,000 at 100% and 20% retention → total 1,000, local 200', () => {
    expect(requiredCollateral(1_000, { collateralisation: 1, retention: 0.2 })).toEqual({
      totalMinor: 1_000,
      localMinor: 200,
    });
  });
});
