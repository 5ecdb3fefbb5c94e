import { describe, expect, it } from 'vitest';
import { TreatyBindRequest } from '../reinsurance/treaty';
import { PortfolioBacktestRequest } from './portfolio-backtest';
import { ProgrammeCreateRequest, ProgrammeUpdateRequest } from './programme';

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('programme requests', () => {
  const zone = { source_id: 'chirps', location: '-1.3,36.8', capacity: 5000000 };

  it('accept the SPEC shape: name, currency, an aggregate limit and capacity rules', () => {
    const request = {
      name: 'Kenya long rains',
      currency: 'KES',
      aggregate_limit: 100000000,
      capacity: {
        zone_default: 2000000,
        zones: [zone],
        zone_perils: [{ ...zone, peril: 'drought', capacity: 1000000 }],
      },
    };
    expect(ProgrammeCreateRequest.parse(request)).toEqual(request);
    expect(ProgrammeCreateRequest.parse({ name: 'Book', currency: 'USD' })).toEqual({ name: 'Book', currency: 'USD' });
  });

  it('refuse a zone named twice, negative amounts, more decimals than the currency has and unknown fields', () => {
    expect(
      issuesOf(ProgrammeCreateRequest.safeParse({ name: 'B', currency: 'KES', capacity: { zones: [zone, zone] } })),
    ).toEqual(['capacity.zones.1: repeats a zone named before in zones']);
    expect(issuesOf(ProgrammeCreateRequest.safeParse({ name: 'B', currency: 'KES', aggregate_limit: -1 }))).toEqual([
      'aggregate_limit: must be 0 or more',
    ]);
    expect(
      issuesOf(
        ProgrammeCreateRequest.safeParse({
          name: 'B',
          currency: 'JPY',
          capacity: { zones: [{ ...zone, capacity: 10.5 }] },
        }),
      ),
    ).toEqual(['capacity.zones.0.capacity: has more decimals than JPY allows']);
    expect(issuesOf(ProgrammeCreateRequest.safeParse({ name: 'B', currency: 'KES', season: 2026 }))).toHaveLength(1);
  });

  it('PATCH: null removes a limit, an empty body changes nothing and is refused', () => {
    expect(
      ProgrammeUpdateRequest.parse({ aggregate_limit: null, capacity: { zones: [{ ...zone, capacity: null }] } }),
    ).toEqual({ aggregate_limit: null, capacity: { zones: [{ ...zone, capacity: null }] } });
    expect(issuesOf(ProgrammeUpdateRequest.safeParse({}))).toEqual([': must change aggregate_limit or capacity']);
  });
});

describe('treaty requests', () => {
  it('accept the three types, with a ceding commission of 0 by default', () => {
    expect(TreatyBindRequest.parse({ type: 'quota_share', cession_rate: 0.75 })).toEqual({
      type: 'quota_share',
      cession_rate: 0.75,
      ceding_commission: 0,
    });
    expect(
      TreatyBindRequest.safeParse({ type: 'stop_loss', attachment: { ratio: 1.1 }, limit: { amount: 1000000 } })
        .success,
    ).toBe(true);
    expect(
      TreatyBindRequest.safeParse({
        type: 'cat_xl',
        retention: 500000,
        limit: 1500000,
        aggregate_limit: 2000000,
        period: { from: '2026-01-01', to: '2026-12-31' },
        reinsurer_organization_id: 'gic-re',
      }).success,
    ).toBe(true);
  });

  it('refuse a rate of 0 or above 1, a period backwards, and a ratio with an amount at once', () => {
    expect(issuesOf(TreatyBindRequest.safeParse({ type: 'quota_share', cession_rate: 0 }))).toEqual([
      'cession_rate: must be more than 0',
    ]);
    expect(issuesOf(TreatyBindRequest.safeParse({ type: 'quota_share', cession_rate: 1.2 }))).toEqual([
      'cession_rate: must be at most 1',
    ]);
    expect(
      issuesOf(
        TreatyBindRequest.safeParse({
          type: 'quota_share',
          cession_rate: 0.5,
          period: { from: '2026-12-31', to: '2026-01-01' },
        }),
      ),
    ).toEqual(['period.to: from must not be after to']);
    expect(
      TreatyBindRequest.safeParse({ type: 'stop_loss', attachment: { ratio: 1.1, amount: 5 }, limit: { ratio: 0.4 } })
        .success,
    ).toBe(false);
  });
});

describe('portfolio backtest requests', () => {
  it('default to 20 seasons net of the treaties, and allow 1 to 40', () => {
    expect(PortfolioBacktestRequest.parse({})).toEqual({ seasons: 20, apply_treaties: true });
    expect(PortfolioBacktestRequest.safeParse({ perils: [] }).success).toBe(false);
    expect(PortfolioBacktestRequest.safeParse({ perils: ['flood', 'flood'] }).success).toBe(false);
    expect(PortfolioBacktestRequest.parse({ perils: ['flood'], apply_treaties: false })).toEqual({
      seasons: 20,
      perils: ['flood'],
      apply_treaties: false,
    });
    expect(PortfolioBacktestRequest.safeParse({ seasons: 41 }).success).toBe(false);
    expect(PortfolioBacktestRequest.safeParse({ seasons: 0 }).success).toBe(false);
  });
});
