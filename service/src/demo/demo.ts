import {
  type EvaluationResult,
  type Farm,
  type Field,
  type IndexReadingsResponse,
  type IndexSource,
  minorUnitExponent,
  type Policy,
  type Quote,
} from '@cropcover/contracts';
import { addDays, utcDate } from '@cropcover/domain';
import { type DevTokenClaims, loadConfig, systemClock } from '@cropcover/runtime';
import { DemoStepFailed, demoApi } from './demo-api';
import { runProductDemo } from './demo-product';
import { type DemoDay, demoWeather, FLOOD_DAYS, type Flood } from './demo-weather';

// `npm run demo`: against a running service, over HTTP only — a farmer registers a farm and a field, a
// weather service registers a 0.05° rainfall grid and sends a year of rainfall for the field's cell up
// to term start, with a flood in it; the insurer's own feed sends the field's NDVI and wind. The insurer
// issues flood (read from the grid) and storm cover priced on that history, and flood cover for a
// neighbour's field in the same cell; then the last days arrive with a new flood. The cover is
// backtested on last year's flood and evaluated live, both fields are paid from the very same series,
// and cover issued after the flood is refused as a known loss. Then the insurer registers a three-phase
// deficit-rainfall product (a sowing week, then dekads), issues it from 7 days back, pays its sowing week
// live and backtests last season phase by phase.
//   BASE_URL (default http://127.0.0.1:3000); tokens are signed with AUTH_JWT_SECRET or the sandbox secret.

const baseUrl = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const farmer: DevTokenClaims = { sub: 'demo-farmer', givenName: 'Wanjiru', familyName: 'Kamau' };
const insurer: DevTokenClaims = { sub: 'demo-underwriter', org: 'demo-insurer', roles: ['insurer'] };
// The insurer's own weather feed: a policy that names no source trusts only the field readings posted by its
// own organization's data providers (SPEC §7 Index data).
const dataProvider: DevTokenClaims = { sub: 'demo-weather-feed', org: insurer.org, roles: ['data_provider'] };
// A satellite rainfall service (as CHIRPS): one series per 0.05° cell, shared by every field in it.
const weatherService: DevTokenClaims = {
  sub: 'demo-chirps-feed',
  org: 'demo-weather-service',
  roles: ['data_provider'],
};
const neighbour: DevTokenClaims = { sub: 'demo-neighbour', givenName: 'Otieno', familyName: 'Mwangi' };

const SUM_INSURED = 250_000;
const CURRENCY = 'KES';

/** `KES 12,500.00`: the currency's own minor unit from the project's ISO 4217 table (never the runtime's
 *  ICU, whose digits differ for some codes), thousands grouped, plain spaces so the output greps the same
 *  everywhere. The amount has at most that many decimals, so toFixed only pads it. */
const money = (amount: number, currency: string): string => {
  const [whole = '', fraction] = amount.toFixed(minorUnitExponent(currency)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`;
};
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
  // The farmer's data is the farmer's: the insurer may quote and insure the farm only once granted.
  await api.post(farmer, `/farms/${farm.farm_id}/access`, { organization_id: insurer.org, purposes: ['insurance'] });
  say(`             ${farmer.sub} grants ${insurer.org} access to the farm for insurance`);

  // Cover must start within the last 7 days (no retroactive cover) and may not be bought on a loss
  // already in the data (known loss): the weather up to term start is in when the cover is issued, and
  // the flood of the last five days arrives after it, as a weather service would send it.
  const termStart = addDays(today, -6);
  const termEnd = addDays(termStart, 364);
  const floods: Flood[] = [
    { start: addDays(today, -200), rainfallMmPerDay: 40 },
    { start: addDays(today, -FLOOD_DAYS), rainfallMmPerDay: 48 },
  ];
  const grid = await api.post<IndexSource>(weatherService, '/insurance/index-sources', {
    kind: 'grid',
    name: 'Satellite rainfall, 0.05° daily',
    index: 'rainfall_mm',
    resolution_deg: 0.05,
  });
  say(`3. Source    "${grid.name}" (${grid.kind}, ${grid.resolution_deg}°) registered by ${weatherService.org}`);
  const weather = demoWeather(addDays(today, -365), addDays(today, -1), floods);
  // One series for the cell, posted at its centre; the field lies in the cell [-0.35, -0.30) × [36.05, 36.10).
  const postWeather = async (days: readonly DemoDay[]) => {
    const rainfall = await api.post<IndexReadingsResponse>(weatherService, '/insurance/index-readings', {
      readings: days.map(({ date, rainfall_mm }) => ({
        source_id: grid.source_id,
        location: '-0.325,36.075',
        date,
        value: rainfall_mm,
      })),
    });
    const onField = await api.post<IndexReadingsResponse>(dataProvider, '/insurance/index-readings', {
      readings: days.flatMap(({ date, ndvi, wind_speed_ms }) => [
        { farm_id: farm.farm_id, field_id: field.field_id, index: 'ndvi', date, value: ndvi },
        { farm_id: farm.farm_id, field_id: field.field_id, index: 'wind_speed_ms', date, value: wind_speed_ms },
      ]),
    });
    return { rainfall: rainfall.accepted, onField: onField.accepted };
  };
  const history = weather.filter(({ date }) => date <= termStart);
  const posted = await postWeather(history);
  say(
    `4. Readings  ${posted.rainfall} days of rainfall for the grid cell and ${posted.onField} field readings ` +
      `(NDVI, wind) from ${history[0]?.date} to ${history.at(-1)?.date}`,
  );
  say(
    `             flood: ${FLOOD_DAYS} days of ${floods[0]!.rainfallMmPerDay} mm from ${floods[0]!.start} ` +
      `(${FLOOD_DAYS * floods[0]!.rainfallMmPerDay} mm in 5 days)`,
  );

  const cover = {
    sum_insured: SUM_INSURED,
    currency: CURRENCY,
    term_start: termStart,
    term_end: termEnd,
    data_sources: { flood: grid.source_id },
  };
  const quote = await api.post<Quote>(insurer, '/insurance/quote', {
    ...cover,
    farm_id: farm.farm_id,
    field_id: field.field_id,
    perils: ['flood', 'storm'],
  });
  const issued = await api.post<Policy>(insurer, '/insurance/policies', {
    ...cover,
    crop_type: 'maize',
    farm_id: farm.farm_id,
    field_id: field.field_id,
    perils: ['flood', 'storm'],
  });
  const floodData = issued.triggers.find((trigger) => trigger.peril === 'flood')?.data_source;
  say(
    `5. Policy    ${issued.policy_id} issued to ${insurer.org}: ${issued.perils.join(' + ')} cover of ` +
      `${money(issued.sum_insured, issued.currency)}, term ${issued.term_start} to ${issued.term_end}`,
  );
  say(`             premium ${money(issued.premium, issued.currency)}, status ${issued.status}`);
  for (const [peril, price] of Object.entries(quote.breakdown)) {
    say(
      `             ${peril.padEnd(6)} rate ${price.rate} (${price.method}, ${price.seasons_used} past season(s), ` +
        `credibility ${price.credibility}): ${money(price.premium, quote.currency)}`,
    );
  }
  say(`             flood reads ${floodData?.kind} cell ${floodData?.location} of source ${floodData?.source_id}`);

  const neighbourFarm = await api.post<Farm>(neighbour, '/farms/create', { name: 'Mwangi farm', currency: CURRENCY });
  const neighbourField = await api.post<Field>(neighbour, `/farms/${neighbourFarm.farm_id}/fields`, {
    field_id: 'hill-plot',
    name: 'Hill plot',
    area_ha: 1.2,
    location: { lat: -0.312, lon: 36.071 },
  });
  await api.post(neighbour, `/farms/${neighbourFarm.farm_id}/access`, {
    organization_id: insurer.org,
    purposes: ['insurance'],
  });
  const neighbourCover = {
    farm_id: neighbourFarm.farm_id,
    field_id: neighbourField.field_id,
    perils: ['flood'],
    sum_insured: 100_000,
    currency: CURRENCY,
    term_start: termStart,
    term_end: termEnd,
    data_sources: { flood: grid.source_id },
  };
  const neighbours = await api.post<Policy>(insurer, '/insurance/policies', neighbourCover);
  say(
    `6. Neighbour ${neighbourFarm.name}'s ${neighbourField.name} lies in the same cell ` +
      `(${neighbours.triggers[0]?.data_source?.location}): flood cover of ${money(neighbours.sum_insured, neighbours.currency)} ` +
      `issued, premium ${money(neighbours.premium, neighbours.currency)}`,
  );

  const recent = weather.filter(({ date }) => date > termStart);
  const arrived = await postWeather(recent);
  say(
    `7. Readings  ${arrived.rainfall} more days for the cell and ${arrived.onField} field readings, ` +
      `${recent[0]?.date} to ${recent.at(-1)?.date}`,
  );
  say(
    `             flood: ${FLOOD_DAYS} days of ${floods[1]!.rainfallMmPerDay} mm from ${floods[1]!.start} ` +
      `(${FLOOD_DAYS * floods[1]!.rainfallMmPerDay} mm in 5 days)`,
  );

  const backtestAsOf = addDays(today, -150);
  const backtest = await api.post<EvaluationResult>(insurer, `/insurance/policies/${issued.policy_id}/evaluate`, {
    as_of: backtestAsOf,
  });
  say(`8. Backtest  as of ${backtest.as_of}: the same cover one season earlier (nothing stored, nothing paid)`);
  for (const line of describeEvaluation(backtest)) say(line);
  say(`   would have paid ${money(backtest.total_payout, backtest.currency)}`);

  const evaluation = await api.post<EvaluationResult>(insurer, `/insurance/policies/${issued.policy_id}/evaluate`, {});
  say(`9. Evaluate  as of ${evaluation.as_of} (live)`);
  for (const line of describeEvaluation(evaluation)) say(line);
  say(
    `   payout ${money(evaluation.total_payout, evaluation.currency)} in ${evaluation.payout_count ?? 0} payout(s); ` +
      `policy is now ${evaluation.policy_status ?? 'unchanged'}`,
  );
  const neighbourEvaluation = await api.post<EvaluationResult>(
    insurer,
    `/insurance/policies/${neighbours.policy_id}/evaluate`,
    {},
  );
  say(
    `   ${neighbourFarm.name}'s flood cover pays ${money(neighbourEvaluation.total_payout, neighbourEvaluation.currency)} ` +
      'from the same series',
  );

  // The flood is in the data now: cover bought today on the same cell would be bought on a known loss.
  const refused = await api.postRefused(insurer, '/insurance/policies', neighbourCover);
  const problem = refused.body as { code?: string; detail?: string };
  say(
    `10. Known loss: the same flood cover issued again now, after the flood arrived, is refused: ` +
      `${refused.status} ${problem.code}`,
  );
  say(`   ${problem.detail}`);

  const policy = await api.get<Policy>(insurer, `/insurance/policies/${issued.policy_id}`);
  say(`11. Read back GET /insurance/policies/${policy.policy_id}: status ${policy.status}`);

  await runProductDemo({ api, insurer, dataProvider, farmer, farmId: farm.farm_id, today, money, say });

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
