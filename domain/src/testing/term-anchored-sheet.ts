import type { TermSheet } from '@cropcover/contracts';

// A drought cover of two phases anchored on the term's start, so its windows move with any term: for tests
// whose terms are dated from today (the read API's, the console's).

/** Days 1–5 of the term: rain summed, paying below 20 mm, all of its half at 5 mm; days 6–30: below
 *  60 mm, all at 20 mm. Each settles when its window closes. */
export const TERM_ANCHORED_PHASES_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'Deficit rainfall, two phases from term start',
  amounts: { unit: 'share' },
  covers: [
    {
      peril: 'drought',
      index: 'phase_rainfall_mm',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.05,
      exposure: 'term_days',
      phases: [
        {
          id: 'establishment',
          window: { from: { anchor: 'term_start', days: 0 }, to: { anchor: 'term_start', days: 4 } },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 20, exit: 5 } },
          limit: 0.5,
          settle: 'window_closed',
        },
        {
          id: 'vegetative',
          window: { from: { anchor: 'term_start', days: 5 }, to: { anchor: 'term_start', days: 29 } },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 60, exit: 20 } },
          limit: 0.5,
          settle: 'window_closed',
        },
      ],
    },
  ],
};
