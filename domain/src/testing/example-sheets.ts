import type { TermSheet } from '@cropcover/contracts';

// The example sheets of TERM-SHEETS.md §1.4, written out as they are there.

/** A. RWBCIS Maharashtra orange, Ambia bahar: two covers, a rolling 7-day sum and a run of cold nights, both step tables. */
export const RWBCIS_ORANGE_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'RWBCIS Maharashtra orange (Ambia bahar) 2020-23, per hectare',
  note: "Source truncates the low-temperature table after 7 days: the 7+ row pays Rs 12,000 until the wording is read. Basis SI = sum of the two covers' known maxima (assumed). Base rates assumed.",
  season: { from: '12-01', to: '02-29' },
  amounts: { unit: 'minor', currency: 'INR', sum_insured_minor: 3200000 },
  rounding: 'half_up',
  covers: [
    {
      peril: 'unseasonal_rain',
      index: 'max_7day_rainfall_mm',
      reading: 'rainfall_mm',
      limit: 2000000,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'december',
          window: { from: '12-01', to: '12-31' },
          aggregate: { rolling: { days: 7, stat: 'sum', pick: 'max' } },
          payout: { steps: [{ from: 30, pay: 2000000 }] },
          limit: 2000000,
        },
      ],
    },
    {
      peril: 'cold',
      index: 'longest_run_tmin_le_10c_days',
      reading: 'tmin_c',
      limit: 1200000,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'jan_feb',
          window: { from: '01-16', to: '02-29' },
          day: { is: { op: 'lte', value: 10 } },
          aggregate: 'longest_run',
          payout: {
            steps: [
              { from: 5, to: 7, pay: 800000 },
              { from: 7, pay: 1200000 },
            ],
          },
          limit: 1200000,
        },
      ],
    },
  ],
};

/** B. Kharif-style deficit rainfall: three phases, dekads capped at 60 mm; phase limits add up to more than the cover limit. */
export const KHARIF_DEFICIT_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'Kharif deficit rainfall, 3 phases, dekadal cap 60 mm, per hectare',
  season: { from: '06-01', to: '09-30' },
  amounts: { unit: 'minor', currency: 'INR', sum_insured_minor: 3000000 },
  covers: [
    {
      peril: 'drought',
      index: 'phase_rainfall_dekad_capped_mm',
      reading: 'rainfall_mm',
      limit: 2400000,
      base_rate: 0.08,
      exposure: 'season',
      phases: [
        {
          id: 'establishment',
          window: { from: '06-01', to: '06-30' },
          blocks: { by: 'dekad', cap: 60 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 100, exit: 40 } },
          limit: 600000,
          settle: 'window_closed',
          min_coverage: 0.9,
        },
        {
          id: 'vegetative',
          window: { from: '07-01', to: '08-10' },
          blocks: { by: 'dekad', cap: 60 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 150, exit: 60 } },
          limit: 900000,
          settle: 'window_closed',
          min_coverage: 0.9,
        },
        {
          id: 'flowering',
          window: { from: '08-11', to: '09-30' },
          blocks: { by: 'dekad', cap: 60 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 160, exit: 40 } },
          limit: 1200000,
          settle: 'window_closed',
          min_coverage: 0.9,
        },
      ],
    },
  ],
};

/** C. CelsiusPro rain days: a count of days above 10 mm, a tick to the limit. */
export const RAIN_DAYS_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'Rain-day cover July-August (CelsiusPro example)',
  season: { from: '07-01', to: '08-31' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 10000000 },
  covers: [
    {
      peril: 'excess_rainfall',
      index: 'rain_days_gt_10mm',
      reading: 'rainfall_mm',
      limit: 10000000,
      base_rate: 0.12,
      exposure: 'season',
      phases: [
        {
          id: 'jul_aug',
          window: { from: '07-01', to: '08-31' },
          day: { is: { op: 'gt', value: 10 } },
          aggregate: 'sum',
          payout: { tick: { direction: 'above', trigger: 3, per_unit: 1000000 } },
          limit: 10000000,
        },
      ],
    },
  ],
};

/** D. SCIC corn rainfall: weighted monthly percent of normal, capped, rounded to 0.1 point, a step schedule. */
export const SCIC_CORN_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'SCIC corn rainfall, option 1 (20/40/40/0), cap 150%, example station',
  season: { from: '05-01', to: '08-31' },
  amounts: { unit: 'share' },
  covers: [
    {
      peril: 'drought',
      index: 'weighted_pct_of_normal',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.06,
      exposure: 'season',
      phases: [
        {
          id: 'may_aug',
          window: { from: '05-01', to: '08-31' },
          blocks: {
            by: 'month',
            vs_normal: { as: 'percent', normal: [80, 50, 30, 20] },
            cap: 150,
            weights: [0.2, 0.4, 0.4, 0],
            round: 1,
          },
          aggregate: 'sum',
          payout: {
            steps: [
              { to: 32, pay: 1 },
              { from: 32, to: 34, pay: 0.95 },
              { from: 34, to: 36, pay: 0.9 },
              { from: 36, to: 38, pay: 0.85 },
              { from: 38, to: 40, pay: 0.8 },
              { from: 40, to: 42, pay: 0.75 },
              { from: 42, to: 44, pay: 0.71 },
              { from: 44, to: 46, pay: 0.67 },
              { from: 46, to: 48, pay: 0.63 },
              { from: 48, to: 50, pay: 0.59 },
              { from: 50, to: 52, pay: 0.55 },
              { from: 52, to: 54, pay: 0.51 },
              { from: 54, to: 56, pay: 0.47 },
              { from: 56, to: 58, pay: 0.43 },
              { from: 58, to: 60, pay: 0.39 },
              { from: 60, to: 62, pay: 0.35 },
              { from: 62, to: 64, pay: 0.315 },
              { from: 64, to: 66, pay: 0.28 },
              { from: 66, to: 68, pay: 0.245 },
              { from: 68, to: 70, pay: 0.21 },
              { from: 70, to: 72, pay: 0.175 },
              { from: 72, to: 74, pay: 0.14 },
              { from: 74, to: 76, pay: 0.105 },
              { from: 76, to: 78, pay: 0.07 },
              { from: 78, to: 80, pay: 0.035 },
            ],
          },
          limit: 1,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

/** A PRF-style Jan–Feb interval (issue 32): one block over January and February, rain as a percent of its
 *  normal, one decimal, paying below 90%. The window is 59 days in a common year, 60 in a leap year. */
export const PRF_JAN_FEB_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'Rainfall index, Jan–Feb interval (PRF-style)',
  season: { from: '01-01', to: '02-29' },
  amounts: { unit: 'share' },
  covers: [
    {
      peril: 'drought',
      index: 'jan_feb_pct_of_normal',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'jan_feb',
          window: { from: '01-01', to: '02-29' },
          blocks: { by: { days: 59 }, vs_normal: { as: 'percent', normal: [100] }, round: 1 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 90, exit: 0 } },
          limit: 1,
          settle: 'window_closed',
        },
      ],
    },
  ],
};
