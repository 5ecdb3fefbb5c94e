import type { TermSheet } from '@cropcover/contracts';

// A one-phase drought sheet over ten days of June, simple enough for a test to compute what it pays from
// the rain it posts: the product backtest's tests, through the API and through the console.

/** USD 10,000 basis over ten days of June: below 50 mm pays linearly to all of it at 0 mm. */
export const JUNE_DRY_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'June dry spell',
  season: { from: '06-01', to: '06-10' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 1_000_000 },
  covers: [
    {
      peril: 'drought',
      index: 'rain_sum',
      reading: 'rainfall_mm',
      limit: 1_000_000,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'june',
          window: { from: '06-01', to: '06-10' },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 50, exit: 0 } },
          limit: 1_000_000,
          settle: 'window_closed',
        },
      ],
    },
  ],
};
