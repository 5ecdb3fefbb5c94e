import { describe, expect, it } from 'vitest';
import { periodNamed, programmeResults } from './programme-results';

describe('results per period', () => {
  it('names a calendar year, a range, or this year', () => {
    expect(periodNamed('2025', '2026-03-01')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(periodNamed('2026-07-01..2027-06-30', '2026-03-01')).toEqual({ from: '2026-07-01', to: '2027-06-30' });
    expect(periodNamed(undefined, '2026-03-01')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('nets ceded premium from premium and every recovery from claims, commission shown beside (G3)', () => {
    const results = programmeResults(
      'prog-1',
      'KES',
      { from: '2026-01-01', to: '2026-12-31' },
      {
        grossPremiumMinor: 1_000_000_000,
        grossClaimsMinor: 1_500_000_000,
        treaties: [
          {
            treatyId: 'qs',
            type: 'quota_share',
            cededPremiumMinor: 750_000_000,
            cedingCommissionMinor: 150_000_000,
            recoveriesMinor: 1_125_000_000,
          },
          {
            treatyId: 'sl',
            type: 'stop_loss',
            cededPremiumMinor: 0,
            cedingCommissionMinor: 0,
            recoveriesMinor: 100_000_000,
          },
        ],
      },
    );
    expect(results).toMatchObject({
      gross_premium: 10_000_000,
      gross_claims: 15_000_000,
      net_premium: 2_500_000,
      net_claims: 2_750_000,
      treaties: [
        { treaty_id: 'qs', ceding_commission: 1_500_000 },
        { treaty_id: 'sl', recoveries: 1_000_000 },
      ],
    });
  });
});
