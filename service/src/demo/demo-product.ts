import type { EvaluationResult, Field, Policy, ProductVersion, Quote, TermSheet } from '@cropcover/contracts';
import { addDays, dayNumber, MAX_BACKDATING_DAYS, shiftYearsBack } from '@cropcover/domain';
import type { DevTokenClaims } from '@cropcover/runtime';
import { DemoStepFailed, type demoApi } from './demo-api';

// The demo's second story (issue 24): a product designer registers a three-phase deficit-rainfall sheet
// (TERM-SHEETS.md example B's shape), the insurer issues it, one phase pays live and last season is
// backtested phase by phase. A deficit phase settles only once its window has closed (§2.6) and cover
// starts at most 7 days back (SPEC §7), so a phase can pay within one run only if its window is at most
// those 8 days: a calendar dekad (8 to 11 days, and aligned) cannot be. The sheet is therefore drawn for
// the day the demo runs: a sowing week from 7 days ago to today, then two phases of three dekads each,
// capped at 60 mm a dekad. The policy starts 7 days back, the week's rain arrives after it was issued
// (before, the loss would have been known and the issue refused), and the sowing week pays live.

export const DEMO_PRODUCT_ID = 'demo-kharif-deficit';

/** `MM-DD` of a date; the last day of February is `02-29`, which is the 28th in a common year. */
const monthDayOf = (date: string): string =>
  date.slice(5, 7) === '02' && addDays(date, 1).slice(5, 7) === '03' ? '02-29' : date.slice(5);

/** The first day of the dekad after the one holding `date` (dekads start on the 1st, 11th and 21st). */
const nextDekadStart = (date: string): string => {
  let next = addDays(date, 1);
  while (!['01', '11', '21'].includes(next.slice(8))) next = addDays(next, 1);
  return next;
};

/** The last day of `count` dekads from `start` (a dekad's first day). */
const dekadsEnd = (start: string, count: number): string => {
  let end = start;
  for (let dekad = 0; dekad < count; dekad += 1) end = addDays(nextDekadStart(end), dekad === count - 1 ? -1 : 0);
  return end;
};

/** The phases' windows for a term starting `termStart` and a sowing week ending `today`. */
export const demoProductWindows = (termStart: string, today: string) => {
  const vegetativeStart = nextDekadStart(today);
  const vegetativeEnd = dekadsEnd(vegetativeStart, 3);
  const floweringStart = addDays(vegetativeEnd, 1);
  return {
    sowing: { from: termStart, to: today },
    vegetative: { from: vegetativeStart, to: vegetativeEnd },
    flowering: { from: floweringStart, to: dekadsEnd(floweringStart, 3) },
  };
};

type Windows = ReturnType<typeof demoProductWindows>;

const deficitPhase = (
  id: string,
  window: { from: string; to: string },
  dekadal: boolean,
  trigger: number,
  exit: number,
  limit: number,
) => ({
  id,
  window: { from: monthDayOf(window.from), to: monthDayOf(window.to) },
  ...(dekadal ? { blocks: { by: 'dekad' as const, cap: 60 } } : {}),
  aggregate: 'sum' as const,
  payout: { linear: { direction: 'below' as const, trigger, exit } },
  limit,
  settle: 'window_closed' as const,
  min_coverage: 0.9,
});

export const demoProductSheet = (windows: Windows): TermSheet => ({
  schema: 'cropcover.term-sheet/1',
  name: 'Demo deficit rainfall: sowing week, vegetative and flowering dekads capped at 60 mm; per hectare',
  season: { from: monthDayOf(windows.sowing.from), to: monthDayOf(windows.flowering.to) },
  amounts: { unit: 'minor', currency: 'INR', sum_insured_minor: 3_000_000 },
  covers: [
    {
      peril: 'drought',
      index: 'phase_rainfall_dekad_capped_mm',
      reading: 'rainfall_mm',
      limit: 2_400_000,
      base_rate: 0.08,
      exposure: 'season',
      phases: [
        deficitPhase('sowing', windows.sowing, false, 20, 4, 600_000),
        deficitPhase('vegetative', windows.vegetative, true, 150, 60, 900_000),
        deficitPhase('flowering', windows.flowering, true, 160, 40, 1_200_000),
      ],
    },
  ],
});

/** Rain on a day of a season drawn as `windows`: a dry sowing week (1 mm a day, 8 mm), a vegetative phase
 *  whose first 30 days bring 2 mm each (60 mm), a flowering phase whose first dekad bursts at 15 mm a day
 *  (150 mm, capped at 60). */
const seasonRain = (windows: Windows, date: string): number => {
  if (date <= windows.sowing.to) return 1;
  if (date >= windows.vegetative.from && dayNumber(date) - dayNumber(windows.vegetative.from) < 30) return 2;
  if (date >= windows.flowering.from && dayNumber(date) - dayNumber(windows.flowering.from) < 10) return 15;
  return 0;
};

const shiftedBack = (windows: Windows, years: number): Windows => {
  const shift = ({ from, to }: { from: string; to: string }) => ({
    from: shiftYearsBack(from, years),
    to: shiftYearsBack(to, years),
  });
  return { sowing: shift(windows.sowing), vegetative: shift(windows.vegetative), flowering: shift(windows.flowering) };
};

interface DemoProductRun {
  readonly api: ReturnType<typeof demoApi>;
  readonly insurer: DevTokenClaims;
  readonly dataProvider: DevTokenClaims;
  readonly farmer: DevTokenClaims;
  readonly farmId: string;
  readonly today: string;
  readonly money: (amount: number, currency: string) => string;
  readonly say: (line: string) => void;
}

const describePhases = (result: EvaluationResult, money: DemoProductRun['money'], say: DemoProductRun['say']) => {
  for (const phase of result.events[0]?.phases ?? []) {
    say(
      `      ${phase.phase.padEnd(11)} ${phase.window_start} to ${phase.window_end} ${phase.status.padEnd(8)} ` +
        (phase.observed_value === undefined
          ? ''
          : `${phase.observed_value} mm (trigger ${phase.trigger}): ${money(phase.amount_due, result.currency)}`),
    );
  }
};

/** The demo runs again against the same service (issue 32): an earlier run's product is kept, and the
 *  sheet drawn for today is its next version — or, earlier the same day, that version already (a sheet
 *  identical to the latest records nothing). */
const registerDemoProduct = async (api: DemoProductRun['api'], insurer: DevTokenClaims, sheet: TermSheet) => {
  try {
    const product = await api.post<ProductVersion>(insurer, '/insurance/products', {
      product_id: DEMO_PRODUCT_ID,
      sheet,
    });
    return { product, earlierRun: false };
  } catch (error) {
    if (!(error instanceof DemoStepFailed && (error.body as { code?: string } | undefined)?.code === 'product_exists'))
      throw error;
    const product = await api.post<ProductVersion>(insurer, `/insurance/products/${DEMO_PRODUCT_ID}/versions`, {
      sheet,
    });
    return { product, earlierRun: true };
  }
};

export const runProductDemo = async ({
  api,
  insurer,
  dataProvider,
  farmer,
  farmId,
  today,
  money,
  say,
}: DemoProductRun): Promise<void> => {
  const termStart = addDays(today, -MAX_BACKDATING_DAYS);
  const windows = demoProductWindows(termStart, today);
  const sheet = demoProductSheet(windows);
  const { product, earlierRun } = await registerDemoProduct(api, insurer, sheet);
  say(
    `12. Product  ${product.product_id} v${product.version} ` +
      (earlierRun ? `of ${insurer.org}, on the product an earlier run registered` : `registered by ${insurer.org}`) +
      ` (${product.digest.slice(0, 19)}…): ${sheet.covers[0]!.phases.length} phases, a sowing week then dekads capped at 60 mm`,
  );
  const field = await api.post<Field>(farmer, `/farms/${farmId}/fields`, {
    field_id: 'upland-plot',
    name: 'Upland plot',
    area_ha: 1,
    location: { lat: -0.2911, lon: 36.1122 },
    crop_type: 'soybean',
  });
  const cover = { farm_id: farmId, field_id: field.field_id, perils: ['drought'], sum_insured: 30_000 };
  // A quote without a term prices the product's next season starting at most 7 days back: this one.
  const quote = await api.post<Quote>(insurer, '/insurance/quote', {
    ...cover,
    product: { product_id: DEMO_PRODUCT_ID },
  });
  const policy = await api.post<Policy>(insurer, '/insurance/policies', {
    ...cover,
    term_start: quote.term_start,
    term_end: quote.term_end,
    product: quote.product,
  });
  say(
    `13. Policy   ${policy.policy_id} on ${field.name}: ${policy.product?.product_id} v${policy.product?.version}, ` +
      `season ${policy.term_start} to ${policy.term_end} (from ${MAX_BACKDATING_DAYS} days back), ` +
      `${money(policy.sum_insured, policy.currency)}, premium ${money(policy.premium, policy.currency)}`,
  );

  /** The insurer's feed posts the season's rain from `from` to `to`; answers the dates posted. */
  const postRain = async (season: Windows, from: string, to: string): Promise<string[]> => {
    const dates: string[] = [];
    for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
    const readings = dates.map((date) => ({
      farm_id: farmId,
      field_id: field.field_id,
      index: 'rainfall_mm',
      date,
      value: seasonRain(season, date),
    }));
    await api.post(dataProvider, '/insurance/index-readings', { readings });
    return dates;
  };

  // The sowing week's rain arrives after the policy was issued.
  const week = await postRain(windows, windows.sowing.from, windows.sowing.to);
  const live = await api.post<EvaluationResult>(insurer, `/insurance/policies/${policy.policy_id}/evaluate`, {});
  say(
    `14. Live     the sowing week's ${week.length} days of rain arrive; evaluated today, its window closed, ` +
      `the sowing phase pays ${money(live.total_payout, live.currency)}:`,
  );
  describePhases(live, money, say);

  // The latest whole season before today: the one a backtest as of its end reads.
  let years = 1;
  while (shiftYearsBack(quote.term_end, years) >= today) years += 1;
  const lastSeason = shiftedBack(windows, years);
  const dates = await postRain(lastSeason, lastSeason.sowing.from, lastSeason.flowering.to);
  say(`15. Backtest last season's ${dates.length} days of rainfall, phase by phase (nothing stored, nothing paid):`);
  for (const asOf of [lastSeason.vegetative.to, lastSeason.flowering.to]) {
    const backtest = await api.post<EvaluationResult>(insurer, `/insurance/policies/${policy.policy_id}/evaluate`, {
      as_of: asOf,
    });
    say(`    as of ${asOf}: the cover would have paid ${money(backtest.total_payout, backtest.currency)}`);
    describePhases(backtest, money, say);
  }
};
