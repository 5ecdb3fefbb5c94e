import type { EvaluationResult, Farm, Field, IndexReadingsResponse, Policy } from '@cropcover/contracts';
import { addDays, utcDate } from '@cropcover/domain';
import { type DevTokenClaims, loadConfig, systemClock } from '@cropcover/runtime';
import { DemoStepFailed, demoApi } from './demo-api';
import { demoReadings, FLOOD_DAYS, type Flood } from './demo-weather';

// `npm run demo`: against a running service, over HTTP only — a farmer registers a farm and a field, a
// data provider sends a year of readings with a flood in it, an insurer issues flood and storm cover,
// backtests it on last year's flood and evaluates it live, and the result is printed.
//   BASE_URL (default http://127.0.0.1:3000); tokens are signed with AUTH_JWT_SECRET or the sandbox secret.

const baseUrl = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const farmer: DevTokenClaims = { sub: 'demo-farmer', givenName: 'Wanjiru', familyName: 'Kamau' };
const insurer: DevTokenClaims = { sub: 'demo-underwriter', org: 'demo-insurer', roles: ['insurer'] };
// The insurer's own weather feed: a policy that names no source trusts only the field readings posted by its
// own organization's data providers (SPEC §7 Index data).
const dataProvider: DevTokenClaims = { sub: 'demo-weather-feed', org: insurer.org, roles: ['data_provider'] };

const SUM_INSURED = 250_000;
const CURRENCY = 'KES';

// Plain spaces instead of Intl's no-break space, so the output reads and greps the same everywhere.
const money = (amount: number, currency: string): string =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount).replace(/\s/g, ' ');
const percent = (fraction: number): string => `${Number((fraction * 100).toFixed(2))} %`;

const describeEvaluation = (result: EvaluationResult): string[] => [
  ...result.events.map(
    (event) =>
      `   ${event.peril.padEnd(8)} ${event.index} = ${event.observed_value} (threshold ${event.threshold}): ` +
      (event.breached ? `BREACHED, severity ${percent(event.severity)}` : 'not breached'),
  ),
  ...(result.skipped_perils ?? []).map(
    (peril) =>
      `   ${peril.padEnd(8)} skipped: ` +
      (result.skipped_reasons?.[peril] === 'incomplete_data'
        ? 'readings on too few days of its window'
        : 'no reading in its window'),
  ),
];

const run = async (): Promise<void> => {
  const { auth } = loadConfig();
  if (!auth.jwtSecret)
    throw new Error('AUTH_JWKS_URL is set: the demo signs its own dev tokens, which needs AUTH_JWT_SECRET');
  const api = demoApi(baseUrl, { secret: auth.jwtSecret, issuer: auth.issuer, audience: auth.audience });
  const today = utcDate(systemClock.now());
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`CropCover demo against ${baseUrl} (today is ${today}, UTC)\n`);

  const farm = await api.post<Farm>(farmer, '/farms/create', {
    name: 'Kamau family farm',
    farm_type: 'smallholder',
    common_grown_crops: ['maize', 'beans'],
    currency: CURRENCY,
    location: 'Nakuru County',
    country: 'Kenya',
  });
  say(
    `1. Farm      "${farm.name}" ${farm.platform_farm_id ?? ''} registered by ${farmer.sub} (farm_id ${farm.farm_id})`,
  );

  const field = await api.post<Field>(farmer, `/farms/${farm.farm_id}/fields`, {
    field_id: 'river-plot',
    name: 'River plot',
    area_ha: 2.5,
    location: { lat: -0.3031, lon: 36.08 },
    crop_type: 'maize',
  });
  say(
    `2. Field     "${field.name}", ${field.area_ha} ha of ${field.crop_type ?? 'crops'} (field_id ${field.field_id})`,
  );

  // Cover must start within the last 7 days (no retroactive cover), and the live evaluation sees only the
  // term so far: this season's flood falls in the days between term_start and yesterday.
  const termStart = addDays(today, -6);
  const termEnd = addDays(termStart, 364);
  const floods: Flood[] = [
    { start: addDays(today, -200), rainfallMmPerDay: 40 },
    { start: addDays(today, -FLOOD_DAYS), rainfallMmPerDay: 48 },
  ];
  const readings = demoReadings({
    farmId: farm.farm_id,
    fieldId: field.field_id,
    from: addDays(today, -365),
    to: addDays(today, -1),
    floods,
  });
  const recorded = await api.post<IndexReadingsResponse>(dataProvider, '/insurance/index-readings', { readings });
  say(
    `3. Readings  ${recorded.accepted} daily readings (rainfall, NDVI, wind) from ${addDays(today, -365)} to ${addDays(today, -1)}`,
  );
  for (const flood of floods)
    say(
      `             flood: ${FLOOD_DAYS} days of ${flood.rainfallMmPerDay} mm from ${flood.start} ` +
        `(${FLOOD_DAYS * flood.rainfallMmPerDay} mm in 5 days)`,
    );

  const issued = await api.post<Policy>(insurer, '/insurance/policies', {
    farm_id: farm.farm_id,
    field_id: field.field_id,
    crop_type: 'maize',
    perils: ['flood', 'storm'],
    sum_insured: SUM_INSURED,
    currency: CURRENCY,
    term_start: termStart,
    term_end: termEnd,
  });
  say(
    `4. Policy    ${issued.policy_id} issued to ${insurer.org}: ${issued.perils.join(' + ')} cover of ` +
      `${money(issued.sum_insured, issued.currency)}, term ${issued.term_start} to ${issued.term_end}`,
  );
  say(`             premium ${money(issued.premium, issued.currency)}, status ${issued.status}`);

  const backtestAsOf = addDays(today, -150);
  const backtest = await api.post<EvaluationResult>(insurer, `/insurance/policies/${issued.policy_id}/evaluate`, {
    as_of: backtestAsOf,
  });
  say(`5. Backtest  as of ${backtest.as_of}: the same cover one season earlier (nothing stored, nothing paid)`);
  for (const line of describeEvaluation(backtest)) say(line);
  say(`   would have paid ${money(backtest.total_payout, backtest.currency)}`);

  const evaluation = await api.post<EvaluationResult>(insurer, `/insurance/policies/${issued.policy_id}/evaluate`, {});
  say(`6. Evaluate  as of ${evaluation.as_of} (live)`);
  for (const line of describeEvaluation(evaluation)) say(line);
  say(
    `   payout ${money(evaluation.total_payout, evaluation.currency)} in ${evaluation.payout_count ?? 0} payout(s); ` +
      `policy is now ${evaluation.policy_status ?? 'unchanged'}`,
  );

  const policy = await api.get<Policy>(insurer, `/insurance/policies/${issued.policy_id}`);
  say(`7. Read back GET /insurance/policies/${policy.policy_id}: status ${policy.status}`);

  say('\nRaw JSON of the live evaluation:');
  say(JSON.stringify(evaluation, null, 2));
  say('\nRaw JSON of the backtest:');
  say(JSON.stringify(backtest, null, 2));
};

run().catch((error: unknown) => {
  if (error instanceof DemoStepFailed) {
    process.stderr.write(`demo: ${error.message}\n${JSON.stringify(error.body, null, 2)}\n`);
  } else if (error instanceof TypeError && error.message === 'fetch failed') {
    process.stderr.write(`demo: no service answers at ${baseUrl}; start one with \`npm start\` or set BASE_URL\n`);
  } else {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exitCode = 1;
});
