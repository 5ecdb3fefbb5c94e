import type { EvaluationResult, Field, Policy, ProductVersion, Quote, TermSheet } from '@cropcover/contracts';
import { addDays, shiftYearsBack } from '@cropcover/domain';
import type { DevTokenClaims } from '@cropcover/runtime';
import type { demoApi } from './demo-api';

// The demo's second story (issue 24): a product designer registers a three-phase deficit-rainfall sheet
// with dekads capped at 60 mm (TERM-SHEETS.md example B), the insurer issues it for the next season, and
// last season's rain is backtested phase by phase. A deficit phase settles only once its window has
// closed (§2.6) and cover starts at most 7 days back, so within one run a phase can only be seen paying
// on a past season: the backtest shows what each phase end would have paid.

export const DEMO_PRODUCT_ID = 'demo-kharif-deficit';

const dekadalPhase = (id: string, from: string, to: string, trigger: number, exit: number, limit: number) => ({
  id,
  window: { from, to },
  blocks: { by: 'dekad' as const, cap: 60 },
  aggregate: 'sum' as const,
  payout: { linear: { direction: 'below' as const, trigger, exit } },
  limit,
  settle: 'window_closed' as const,
  min_coverage: 0.9,
});

export const DEMO_PRODUCT_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'Demo Kharif deficit rainfall: establishment, vegetative, flowering; dekads capped at 60 mm; per hectare',
  season: { from: '06-01', to: '09-30' },
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
        dekadalPhase('establishment', '06-01', '06-30', 100, 40, 600_000),
        dekadalPhase('vegetative', '07-01', '08-10', 150, 60, 900_000),
        dekadalPhase('flowering', '08-11', '09-30', 160, 40, 1_200_000),
      ],
    },
  ],
};

/** Last season's rain: a dry establishment (40 mm), a dry vegetative phase (60 mm), a flowering burst
 *  whose dekad the cap holds to 60 mm (TERM-SHEETS.md G21). */
const lastSeasonRain = (date: string): number => {
  const monthDay = date.slice(5);
  if (monthDay <= '06-10') return 3;
  if (monthDay <= '06-20') return 1;
  if (monthDay >= '07-01' && monthDay <= '07-30') return 2;
  if (monthDay >= '08-11' && monthDay <= '08-20') return 15;
  return 0;
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
  const product = await api.post<ProductVersion>(insurer, '/insurance/products', {
    product_id: DEMO_PRODUCT_ID,
    sheet: DEMO_PRODUCT_SHEET,
  });
  say(
    `12. Product  ${product.product_id} v${product.version} registered by ${insurer.org} (${product.digest.slice(0, 19)}…): ` +
      `${DEMO_PRODUCT_SHEET.covers[0]!.phases.length} phases, dekads capped at 60 mm`,
  );
  const field = await api.post<Field>(farmer, `/farms/${farmId}/fields`, {
    field_id: 'upland-plot',
    name: 'Upland plot',
    area_ha: 1,
    location: { lat: -0.2911, lon: 36.1122 },
    crop_type: 'soybean',
  });
  const cover = { farm_id: farmId, field_id: field.field_id, perils: ['drought'], sum_insured: 30_000 };
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
      `season ${policy.term_start} to ${policy.term_end}, ${money(policy.sum_insured, policy.currency)}, ` +
      `premium ${money(policy.premium, policy.currency)}`,
  );

  // The latest whole season before today: the one a backtest as of its end reads.
  let years = 1;
  while (shiftYearsBack(quote.term_end, years) >= today) years += 1;
  const seasonStart = shiftYearsBack(quote.term_start, years);
  const seasonEnd = shiftYearsBack(quote.term_end, years);
  const dates: string[] = [];
  for (let date = seasonStart; date <= seasonEnd; date = addDays(date, 1)) dates.push(date);
  await api.post(dataProvider, '/insurance/index-readings', {
    readings: dates.map((date) => ({
      farm_id: farmId,
      field_id: field.field_id,
      index: 'rainfall_mm',
      date,
      value: lastSeasonRain(date),
    })),
  });
  say(`14. Backtest last season's ${dates.length} days of rainfall, phase by phase (nothing stored, nothing paid):`);
  for (const asOf of [addDays(seasonStart, 29), seasonEnd]) {
    const backtest = await api.post<EvaluationResult>(insurer, `/insurance/policies/${policy.policy_id}/evaluate`, {
      as_of: asOf,
    });
    say(`    as of ${asOf}: the cover would have paid ${money(backtest.total_payout, backtest.currency)}`);
    for (const phase of backtest.events[0]?.phases ?? []) {
      say(
        `      ${phase.phase.padEnd(13)} ${phase.window_start} to ${phase.window_end} ${phase.status.padEnd(8)} ` +
          (phase.observed_value === undefined
            ? ''
            : `${phase.observed_value} mm (trigger ${phase.trigger}): ${money(phase.amount_due, backtest.currency)}`),
      );
    }
  }
};
