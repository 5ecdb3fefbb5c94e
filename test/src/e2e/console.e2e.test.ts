import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sheetDigest } from '@cropcover/domain';
import {
  JUNE_DRY_SHEET,
  KHARIF_DEFICIT_SHEET,
  RAIN_DAYS_SHEET,
  TERM_ANCHORED_PHASES_SHEET,
} from '@cropcover/domain/testing';
import { createPostgresEventStore } from '@cropcover/eventstore';
import { policyStory } from '@cropcover/projector/testing';
import { createLogger, createPool, SANDBOX_AUDIT_SIGNING_KEY } from '@cropcover/runtime';
import { createTestDatabase, describeNeeding, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { axeViolations, chromiumMissing, launchChromium } from '../support/chromium';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { type RunningService, repositoryRoot, startService } from '../support/service-process';
import { eventually } from '../support/webhook-receiver';

// The console (SPEC §8) in headless Chromium against `npm start`: signed in with a bearer token, it shows
// only what the API answers for that token. One browser for the file; each test its own context.

const insurer: Caller = { sub: 'underwriter-c', org: 'org-c', roles: ['insurer'] };
const dataProvider: Caller = { sub: 'weather-feed-c', org: 'org-c', roles: ['data_provider'] };
const otherInsurer: Caller = { sub: 'underwriter-y', org: 'org-y', roles: ['insurer'] };
const owner: Caller = { sub: 'farmer-c', givenName: 'Amina', familyName: 'Otieno' };

/** The first load of a page may weigh this much, gzipped (issue 21). */
const FIRST_LOAD_LIMIT = 200 * 1024;
/** `CONSOLE_SCREENSHOTS=update npm test` refreshes the README's pictures; otherwise they go to tmp. */
const screenshotPath = (name: 'policy' | 'programme'): string =>
  process.env.CONSOLE_SCREENSHOTS === 'update'
    ? join(repositoryRoot, `docs/console/${name}.png`)
    : join(tmpdir(), `cropcover-console-${name}.png`);

let database: TestDatabase;
let service: RunningService;
let api: ApiClient;
let browser: Browser;
let paid: { policyId: string; payoutDate: string; amount: number };
let unpaidPolicyId: string;
let phased: { policyId: string; payoutDate: string; amount: number };
let fields: Record<'north' | 'south', { farm_id: string; field_id: string }>;

const issue = async (
  field: { farm_id: string; field_id: string },
  perils: string[],
  caller: Caller = insurer,
): Promise<string> => {
  const issued = await api.post('/insurance/policies', caller, {
    ...field,
    perils,
    sum_insured: 25_000,
    currency: 'KES',
    crop_type: 'maize',
    term_start: addDays(today(), -7),
    term_end: addDays(today(), 23),
  });
  expect(issued.status).toBe(201);
  return issued.body.policy_id;
};

/** A policy of a product whose drought cover has two phases, its windows from term start (days 1–5 and
 *  6–30), as the command side issues it: appended to the log, since products are not yet registered over
 *  HTTP. The running service projects it like any other. */
const issuePhasedPolicy = async (databaseUrl: string, field: { farm_id: string; field_id: string }) => {
  const story = policyStory({
    policyId: 'phased-drought',
    organizationId: insurer.org!,
    subject: insurer.sub,
    farmId: field.farm_id,
    fieldId: field.field_id,
    perils: ['drought'],
    sumInsured: 25_000,
    currency: 'KES',
    termStart: addDays(today(), -7),
    termEnd: addDays(today(), 22),
    issuedAt: `${addDays(today(), -8)}T08:00:00.000Z`,
    product: {
      ref: { product_id: 'two-phases', version: 1, digest: sheetDigest(TERM_ANCHORED_PHASES_SHEET) },
      sheet: TERM_ANCHORED_PHASES_SHEET,
    },
  });
  const pool = createPool(databaseUrl, createLogger({ level: 'silent' }), { max: 1 });
  try {
    await createPostgresEventStore({ pool }).append(story.streamId, story.takeNew(), 'no_stream');
  } finally {
    await pool.end();
  }
  return story.state.issued.policy_id;
};

describeNeeding('the console', chromiumMissing, () => {
  beforeAll(async () => {
    database = await createTestDatabase('e2e_console');
    [service, browser] = await Promise.all([
      startService({ DATABASE_URL: database.url, MONITOR_ENABLED: 'false' }),
      launchChromium(),
    ]);
    api = apiClient(service.baseUrl);
    const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
    await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
    const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: 'north',
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
      crop_type: 'maize',
    });
    expect(field.status).toBe(201);
    const ids = { farm_id: farm.body.farm_id as string, field_id: 'north' };
    const south = { ...ids, field_id: 'south' };
    expect(
      (
        await api.post(`/farms/${ids.farm_id}/fields`, owner, {
          field_id: 'south',
          name: 'South plot',
          area_ha: 1.5,
          location: { lat: -1.3, lon: 36.82 },
          crop_type: 'maize',
        })
      ).status,
    ).toBe(201);
    fields = { north: ids, south };
    const phasedPolicyId = await issuePhasedPolicy(database.url, south);
    const policyId = await issue(ids, ['flood']);
    unpaidPolicyId = await issue(ids, ['flood', 'storm']);
    // Issued before the flood (no cover is sold on a loss already in the data): eight days of rain, five of
    // them 40 mm, then the evaluation pays (200 − 150) / 150 of the sum insured.
    await recordReadings(api, dataProvider, ids, 'rainfall_mm', addDays(today(), -7), [2, 0, 1, 40, 40, 40, 40, 40]);
    const evaluation = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
    expect(evaluation.body.total_payout).toBeGreaterThan(0);
    paid = { policyId, payoutDate: evaluation.body.as_of, amount: evaluation.body.total_payout };
    // The first phase (days 1–5) reads 8 mm and has closed: (20 − 8) / (20 − 5) of its half of the sum
    // insured. The second has 30 mm so far and waits for its window to close.
    await recordReadings(api, dataProvider, south, 'rainfall_mm', addDays(today(), -7), [2, 2, 2, 1, 1, 10, 10, 10]);
    const phasedEvaluation = await api.post(`/insurance/policies/${phasedPolicyId}/evaluate`, insurer, {});
    expect(phasedEvaluation.body.total_payout).toBe(10_000);
    phased = { policyId: phasedPolicyId, payoutDate: phasedEvaluation.body.as_of, amount: 10_000 };
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await database?.drop();
  });

  let context: BrowserContext;
  let page: Page;
  /** Every request the page made, by URL. */
  let requested: string[];

  const signIn = async (caller: Caller | string, path = '/console/') => {
    await page.goto(`${service.baseUrl}${path}`);
    await page.getByLabel('Bearer token').fill(typeof caller === 'string' ? caller : await tokenFor(caller));
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  });
  afterAll(async () => {
    await context?.close();
  });
  /** A fresh page (its own sessionStorage) per test, recording what it asks for. */
  const openPage = async () => {
    page = await context.newPage();
    // Within the test's own timeout, so a missing element is reported as such.
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => console.error(`console page error: ${error.message}`));
    requested = [];
    page.on('request', (request) => requested.push(request.url()));
  };

  it('signs in with a token and lists the organization’s policies, filtered and by pages as the API does', async () => {
    await openPage();
    await signIn(insurer);
    await expect.poll(() => page.locator('[data-total]').getAttribute('data-total')).toBe('3');
    const rows = page.locator('[data-policies] tbody tr');
    expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-policy')))).toEqual([
      unpaidPolicyId,
      paid.policyId,
      phased.policyId,
    ]);
    await page.getByLabel('Peril').selectOption('storm');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('[data-total]').getAttribute('data-total')).toBe('1');
    expect(new URL(page.url()).searchParams.get('peril')).toBe('storm');

    await page.goto(`${service.baseUrl}/console/?page_size=1`);
    await page.waitForSelector('[data-policies]');
    expect(await page.locator('[data-page]').textContent()).toBe('Page 1 of 3');
    await page.getByRole('link', { name: 'Next page' }).click();
    await expect.poll(() => page.locator('[data-page]').textContent()).toBe('Page 2 of 3');
    expect(await rows.getAttribute('data-policy')).toBe(paid.policyId);
    await page.close();
  });

  // Issue 32: the Peril filter offered the seed's four alone, so a policy of a term sheet's peril could not be
  // reached from the console although the API's list accepts every peril of the contract.
  it('filters to a peril a product added: an excess-rainfall policy of a rain-days product', async () => {
    const rainInsurer: Caller = { sub: 'underwriter-r', org: 'org-r', roles: ['insurer'] };
    await grantInsurance(api, owner, fields.north.farm_id, rainInsurer.org!);
    const product = await api.post('/insurance/products', rainInsurer, {
      product_id: 'rain-days',
      sheet: RAIN_DAYS_SHEET,
    });
    expect(product.status).toBe(201);
    const cover = { ...fields.north, perils: ['excess_rainfall'], sum_insured: 25_000 };
    const quote = await api.post('/insurance/quote', rainInsurer, { ...cover, product: { product_id: 'rain-days' } });
    expect(quote.status).toBe(200);
    const issued = await api.post('/insurance/policies', rainInsurer, {
      ...cover,
      term_start: quote.body.term_start,
      term_end: quote.body.term_end,
      product: quote.body.product,
    });
    expect(issued.status).toBe(201);
    // A flood policy of the built-in product beside it, which the filter leaves out.
    await issue(fields.north, ['flood'], rainInsurer);

    await openPage();
    await signIn(rainInsurer);
    await expect.poll(() => page.locator('[data-total]').getAttribute('data-total')).toBe('2');
    await page.getByLabel('Peril').selectOption('excess_rainfall');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('[data-total]').getAttribute('data-total')).toBe('1');
    expect(new URL(page.url()).searchParams.get('peril')).toBe('excess_rainfall');
    expect(await page.locator('[data-policies] tbody tr').getAttribute('data-policy')).toBe(issued.body.policy_id);
    await page.close();
  });

  // Issue 35 (TERM-SHEETS.md §5.1): a product's phases as a table and what each index value pays as a chart,
  // drawn from the API's payout curve.
  it('opens a product: its phases as a table, and its payout curve as the API draws it', async () => {
    const designer: Caller = { sub: 'designer-k', org: 'org-k', roles: ['insurer'] };
    const product = await api.post('/insurance/products', designer, {
      product_id: 'kharif-deficit',
      sheet: KHARIF_DEFICIT_SHEET,
    });
    expect(product.status).toBe(201);

    await openPage();
    await signIn(designer);
    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByRole('link', { name: 'kharif-deficit' }).click();
    const chart = page.locator('svg[data-chart="curve-drought"]');
    await chart.waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/products/kharif-deficit');
    const phases = await page
      .locator('[data-phases="drought"] tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-phase')));
    expect(phases).toEqual(KHARIF_DEFICIT_SHEET.covers[0]!.phases.map((phase) => phase.id));
    const lines = await chart
      .locator('[data-line]')
      .evaluateAll((all) => all.map((line) => [line.getAttribute('data-line'), line.getAttribute('data-points')]));
    expect(lines).toEqual([
      ['cover', '201'],
      ['phase-1', '201'],
      ['phase-2', '201'],
      ['phase-3', '201'],
    ]);
    // The table says what the API says: at index 0 every phase pays its whole limit, the cover its own.
    const curve = await api.post('/insurance/products/payout-curve', designer, {
      sheet: KHARIF_DEFICIT_SHEET,
      peril: 'drought',
      from: 0,
      to: 1,
      points: 2,
    });
    await page.getByText('Table of the chart').click();
    const first = page.locator('[data-chart-table="curve-drought"] tbody tr').first();
    expect((await first.locator('td').first().textContent())?.replace(/[^0-9.]/g, '')).toBe(
      String(curve.body.points[0].cover.amount_due),
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  // Issue 35: a product backtested from its page, its job followed to each location's statistics and basis
  // risk, and the seasons of the location chosen as a table and a chart. The figures are the rain posted:
  // June 1–10 of 2019–2021, 100, 25 and 100 mm in the WET cell, 100, 0 and 40 mm in the DRY one.
  it('backtests a product from its page: each location’s statistics, and the seasons of the one chosen', async () => {
    const designer: Caller = { sub: 'designer-b', org: 'org-b', roles: ['insurer'] };
    const feed: Caller = { sub: 'chirps-feed-b', org: 'org-data-b', roles: ['data_provider'] };
    const WET = '-1.25,36.75';
    const DRY = '-1.50,36.75';
    const rain: Record<string, Record<number, number>> = {
      [WET]: { 2019: 10, 2020: 2.5, 2021: 10 },
      [DRY]: { 2019: 10, 2020: 0, 2021: 4 },
    };
    const source = await api.post('/insurance/index-sources', feed, {
      kind: 'grid',
      name: 'CHIRPS for the console',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
    });
    expect(source.status).toBe(201);
    const sourceId: string = source.body.source_id;
    const readings = Object.entries(rain).flatMap(([location, years]) =>
      Object.entries(years).flatMap(([year, mm]) =>
        Array.from({ length: 10 }, (_, day) => ({
          source_id: sourceId,
          location,
          date: `${year}-06-${String(day + 1).padStart(2, '0')}`,
          value: mm,
        })),
      ),
    );
    expect((await api.post('/insurance/index-readings', feed, { readings })).status).toBe(200);
    expect(
      (await api.post('/insurance/products', designer, { product_id: 'june-dry', sheet: JUNE_DRY_SHEET })).status,
    ).toBe(201);

    await openPage();
    await signIn(designer, '/console/products/june-dry');
    const form = page.getByRole('form', { name: 'Backtest the product' });
    await form.waitFor();
    // Refused in the page, before anything is asked: losses observed without their threshold.
    await form.getByLabel('Source id').fill(sourceId);
    await form.getByLabel('Locations, one a line').fill(`${WET}\n${DRY}`);
    await form.getByLabel('From', { exact: true }).fill('2019');
    await form.getByLabel('to', { exact: true }).fill('2021');
    // WET's pairs (payout share, loss): (0, .1), (.5, .4), (0, .6): the last a loss above 0.3 left unpaid.
    await form
      .getByLabel(/^Observed losses/)
      .fill(`${WET} 2019 0.1\n${WET} 2020 0.4\n${WET} 2021 0.6\n${DRY} 2020 0.7`);
    await form.getByRole('button', { name: 'Run the backtest' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('loss threshold');
    expect(requested.some((url) => url.endsWith('/insurance/products/backtest'))).toBe(false);
    await form.getByLabel('Loss threshold (with observed losses)').fill('0.3');
    await form.getByRole('button', { name: 'Run the backtest' }).click();

    const done = page.locator('[data-backtest-status="succeeded"]');
    await done.waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/products\/backtests\/[^/]+$/);
    const rows = await page
      .locator('[data-locations] tbody tr')
      .evaluateAll((all) =>
        all.map((row) =>
          ['location', 'average-loss-cost', 'payout-frequency', 'worst-season', 'spearman', 'false-negatives'].map(
            (name) =>
              row.querySelector(`[data-${name}]`)?.getAttribute(`data-${name}`) ?? row.getAttribute(`data-${name}`),
          ),
        ),
      );
    // WET: ranks of payouts (1.5, 3, 1.5) against losses (1, 2, 3) do not correlate; DRY has one pair only,
    // too few for a ρ.
    expect(rows).toEqual([
      [WET, '0.166667', '0.333333', '2020', '0', '1'],
      [DRY, '0.4', '0.666667', '2020', '', '0'],
    ]);

    // The first location is charted until another is chosen; the chart draws the money each season was due.
    const dueBySeason = () =>
      page
        .locator('svg[data-chart="amount-due-seasons"] [data-season]')
        .evaluateAll((all) =>
          all.map((season) => [
            season.getAttribute('data-season'),
            season.querySelector('[data-kind="due"]')?.getAttribute('data-value'),
          ]),
        );
    expect(await dueBySeason()).toEqual([
      ['2019', '0'],
      ['2020', '5000'],
      ['2021', '0'],
    ]);
    await page.getByRole('link', { name: DRY }).click();
    await page.locator(`[data-location-seasons="${DRY}"]`).waitFor();
    expect(new URL(page.url()).searchParams.get('location')).toBe(DRY);
    expect(await dueBySeason()).toEqual([
      ['2019', '0'],
      ['2020', '10000'],
      ['2021', '2000'],
    ]);
    const seasons = await page
      .locator('table[data-seasons] tbody tr')
      .evaluateAll((all) =>
        all.map((row) => [
          row.getAttribute('data-season'),
          row.querySelector('[data-index]')?.getAttribute('data-index'),
          row.querySelector('[data-status]')?.getAttribute('data-status'),
        ]),
      );
    expect(seasons).toEqual([
      ['2019', '100', 'complete'],
      ['2020', '0', 'complete'],
      ['2021', '40', 'complete'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 120_000);

  it('opens a paid policy: the payout marker on the evaluation’s date, the trigger and exit lines at their levels', async () => {
    await openPage();
    await signIn(insurer);
    await page.getByRole('link', { name: paid.policyId }).click();
    const chart = page.locator('svg[data-chart="cover-flood"]');
    await chart.waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/policies/${paid.policyId}`);

    const payout = chart.locator('[data-marker="payout"]');
    expect(await payout.count()).toBe(1);
    expect(await payout.getAttribute('data-date')).toBe(paid.payoutDate);
    expect(Number(await payout.getAttribute('data-amount'))).toBe(paid.amount);
    // On the one time axis: where that day's reading is drawn.
    const readingOfThatDay = chart.locator(`[data-series="reading"] rect[data-date="${paid.payoutDate}"]`);
    expect(await payout.getAttribute('data-x')).toBe(await readingOfThatDay.getAttribute('data-x'));
    expect(Number(await readingOfThatDay.getAttribute('data-value'))).toBe(40);

    // Each level line is drawn where the left axis puts its value.
    const ticks = await chart
      .locator('[data-tick]')
      .evaluateAll((all) =>
        all.map((tick) => [Number(tick.getAttribute('data-tick')), Number(tick.getAttribute('data-y'))]),
      );
    const [low, high] = [ticks[0]!, ticks.at(-1)!];
    const yOf = (value: number) => low[1]! + ((value - low[0]!) * (high[1]! - low[1]!)) / (high[0]! - low[0]!);
    for (const [kind, value] of [
      ['trigger', 150],
      ['exit', 300],
    ] as const) {
      const line = chart.locator(`line[data-level="${kind}"]`);
      expect(Number(await line.getAttribute('data-value'))).toBe(value);
      expect(Number(await line.getAttribute('y1'))).toBeCloseTo(yOf(value), 6);
    }
    const evaluation = chart.locator('[data-marker="evaluation"]');
    expect(await evaluation.getAttribute('data-value')).toBe('200');
    expect(await page.locator('[data-source]').getAttribute('data-source')).toBe('organization-fields:org-c');

    await mkdir(dirname(screenshotPath('policy')), { recursive: true });
    await page.screenshot({ path: screenshotPath('policy'), fullPage: true });
    await page.close();
  });

  it('opens a policy of two phases: a chart per phase, each with its own window, levels and what it paid', async () => {
    await openPage();
    await signIn(insurer, `/console/policies/${phased.policyId}`);
    const establishment = page.locator('svg[data-chart="cover-drought-phase-establishment"]');
    const vegetative = page.locator('svg[data-chart="cover-drought-phase-vegetative"]');
    await establishment.waitFor();
    expect(await page.locator('svg[data-chart]').count()).toBe(2);
    const levelsOf = (chart: typeof establishment) =>
      chart
        .locator('line[data-level]')
        .evaluateAll((all) => all.map((line) => [line.getAttribute('data-level'), line.getAttribute('data-value')]));
    expect(await levelsOf(establishment)).toEqual([
      ['trigger', '20'],
      ['exit', '5'],
    ]);
    expect(await levelsOf(vegetative)).toEqual([
      ['trigger', '60'],
      ['exit', '20'],
    ]);
    // Each phase's window shaded on the cover's one time axis: the two charts line up day for day.
    expect(await establishment.locator('[data-band]').getAttribute('data-from')).toBe(addDays(today(), -7));
    expect(await establishment.locator('[data-band]').getAttribute('data-to')).toBe(addDays(today(), -3));
    expect(await vegetative.locator('[data-band]').getAttribute('data-from')).toBe(addDays(today(), -2));
    expect(await establishment.getAttribute('data-from')).toBe(await vegetative.getAttribute('data-from'));
    // The payout is marked on the phase that earned it, on the day of the evaluation.
    const payout = establishment.locator('[data-marker="payout"]');
    expect(await payout.getAttribute('data-date')).toBe(phased.payoutDate);
    expect(Number(await payout.getAttribute('data-amount'))).toBe(phased.amount);
    expect(await vegetative.locator('[data-marker="payout"]').count()).toBe(0);
    expect(await establishment.locator('[data-marker="evaluation"]').getAttribute('data-value')).toBe('8');
    expect(await vegetative.locator('[data-marker="evaluation"]').getAttribute('data-value')).toBe('30');
    expect(await page.locator('[data-phases="drought"] li').count()).toBe(2);
    await page.close();
  });

  it('shows another organization’s token none of it', async () => {
    await openPage();
    await signIn(otherInsurer);
    await expect.poll(() => page.locator('[data-total]').getAttribute('data-total')).toBe('0');
    expect(await page.locator('[data-policies]').count()).toBe(0);
    await page.goto(`${service.baseUrl}/console/policies/${paid.policyId}`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain(`No policy ${paid.policyId} is visible to you`);
    await page.goto(`${service.baseUrl}/console/policies/${phased.policyId}`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain(`No policy ${phased.policyId} is visible to you`);
    expect(await page.locator('svg[data-chart]').count()).toBe(0);
    await page.close();
  });

  it('drops a token the API refuses and says why', async () => {
    await openPage();
    await signIn('not.a.token');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The API refused the token');
    expect(await page.getByLabel('Bearer token').count()).toBe(1);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await page.close();
  });

  it('is usable from the keyboard: tab to a policy, open it, and its heading has the focus', async () => {
    await openPage();
    await signIn(insurer);
    await page.waitForSelector('[data-policies]');
    let focused = '';
    for (let presses = 0; presses < 30 && focused !== paid.policyId; presses += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>("document.activeElement?.textContent ?? ''");
    }
    expect(focused).toBe(paid.policyId);
    await page.keyboard.press('Enter');
    await page.locator('svg[data-chart]').first().waitFor();
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
    await page.close();
  });

  it('has no accessibility violation axe-core finds, on any page', async () => {
    await openPage();
    await page.goto(`${service.baseUrl}/console/`);
    await page.getByLabel('Bearer token').waitFor();
    const found = { signIn: await axeViolations(page) } as Record<string, unknown>;
    await signIn(insurer);
    await page.waitForSelector('[data-policies]');
    found.policies = await axeViolations(page);
    await page.goto(`${service.baseUrl}/console/policies/${paid.policyId}`);
    await page.locator('svg[data-chart]').first().waitFor();
    // With the chart's table open too.
    for (const summary of await page.locator('details summary').all()) await summary.click();
    found.policy = await axeViolations(page);
    await page.goto(`${service.baseUrl}/console/policies/${phased.policyId}`);
    await page.locator('svg[data-chart]').first().waitFor();
    found.phasedPolicy = await axeViolations(page);
    await page.goto(`${service.baseUrl}/console/no-such-page`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    found.notFound = await axeViolations(page);
    expect(found).toEqual({ signIn: [], policies: [], policy: [], phasedPolicy: [], notFound: [] });
    // And it does look: a field without a label is reported.
    await page.evaluate("document.querySelector('main').append(document.createElement('input'))");
    expect((await axeViolations(page)).map((violation) => violation.id)).toContain('label');
    await page.close();
  });

  it(`loads under ${FIRST_LOAD_LIMIT / 1024} KB gzipped, from its own origin only, under a policy that forbids any other`, async () => {
    await openPage();
    const bodies: Buffer[] = [];
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname.startsWith('/console')) bodies.push(await response.body());
    });
    const response = await page.goto(`${service.baseUrl}/console/`);
    await page.getByLabel('Bearer token').waitFor();
    await page.waitForLoadState('networkidle');
    const policy = response!.headers()['content-security-policy']!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("script-src 'self'");
    const gzipped = bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
    console.info(`console first load: ${bodies.length} files, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    expect(gzipped).toBeLessThan(FIRST_LOAD_LIMIT);

    await signIn(insurer);
    await page.getByRole('link', { name: paid.policyId }).click();
    await page.locator('svg[data-chart]').first().waitFor();
    expect(requested.filter((url) => !url.startsWith(`${service.baseUrl}/`))).toEqual([]);
    await page.close();
  });
  describe('a programme', () => {
    let programmeId: string;
    const zoneOf = (field: { farm_id: string; field_id: string }) =>
      `organization-fields:${insurer.org}/${field.farm_id}/${field.field_id}`;

    // Issued after the policy list's tests: a programme of its own, its south zone the fuller (25,000 of
    // 30,000) and its north zone a quarter full, and a quota share bound before the policies, so it cedes
    // their premiums.
    beforeAll(async () => {
      const created = await api.post('/insurance/programmes', insurer, {
        name: 'Long rains',
        currency: 'KES',
        capacity: {
          zone_default: 100_000,
          zones: [
            {
              source_id: `organization-fields:${insurer.org}`,
              location: `${fields.south.farm_id}/south`,
              capacity: 30_000,
            },
          ],
        },
      });
      expect(created.status).toBe(201);
      programmeId = created.body.programme_id;
      const treaty = await api.post(`/insurance/programmes/${programmeId}/treaties`, insurer, {
        type: 'quota_share',
        cession_rate: 0.4,
      });
      expect(treaty.status).toBe(201);
      for (const field of [fields.north, fields.south]) {
        const issued = await api.post('/insurance/policies', insurer, {
          ...field,
          programme_id: programmeId,
          perils: ['storm'],
          sum_insured: 25_000,
          currency: 'KES',
          term_start: addDays(today(), 1),
          term_end: addDays(today(), 60),
        });
        expect(issued.status).toBe(201);
      }
      // Cessions are recorded after the issue, off the request: the page (and its picture) waits for them.
      await eventually(async () => {
        const results = await api.get(`/insurance/programmes/${programmeId}/results`, insurer);
        return (results.body.treaties?.[0]?.ceded_premium ?? 0) > 0;
      }, 30_000);
    });

    it('opens from the list and shows the fullest zone first, coloured as full, with its treaty and net', async () => {
      await openPage();
      await signIn(insurer);
      await page.getByRole('link', { name: 'Programmes' }).click();
      await page.getByRole('link', { name: 'Long rains' }).click();
      const grid = page.locator('[data-exposure]');
      await grid.waitFor();
      expect(new URL(page.url()).pathname).toBe(`/console/programmes/${programmeId}`);
      const zones = await grid
        .locator('[data-zone]')
        .evaluateAll((all) =>
          all.map((zone) => [zone.getAttribute('data-zone'), zone.getAttribute('data-band'), zone.textContent]),
        );
      expect(zones.map(([zone]) => zone)).toEqual([zoneOf(fields.south), zoneOf(fields.north)]);
      expect(zones.map(([, band]) => band)).toEqual(['high', 'low']);
      expect(zones[0]![2]).toContain('83.3 %');
      expect(await page.locator('[data-treaties] [data-treaty]').count()).toBe(1);
      // The API gives the period as its contract says (calendar dates), and the console writes them as it
      // writes every date (the locale's), not as the API's ISO text.
      const [treaty] = (await api.get(`/insurance/programmes/${programmeId}/treaties`, insurer)).body.items;
      expect(treaty.period.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const treatyPeriod = await page.locator('[data-treaties] [data-treaty] [data-period]').textContent();
      expect(treatyPeriod).toMatch(/\b20\d\d\b/);
      expect(treatyPeriod).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(await page.locator('[data-results] [data-line="net"]').count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await mkdir(dirname(screenshotPath('programme')), { recursive: true });
      await page.screenshot({ path: screenshotPath('programme'), fullPage: true });
      await page.close();
    });

    it('is keyboard-usable: tab to the programme from the list and open it', async () => {
      await openPage();
      await signIn(insurer, '/console/programmes');
      await page.waitForSelector('[data-programmes]');
      let focused = '';
      for (let presses = 0; presses < 30 && focused !== 'Long rains'; presses += 1) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate<string>("document.activeElement?.textContent ?? ''");
      }
      expect(focused).toBe('Long rains');
      await page.keyboard.press('Enter');
      await page.locator('[data-exposure]').waitFor();
      expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
      await page.close();
    });

    it('shows another organization’s token none of it', async () => {
      await openPage();
      await signIn(otherInsurer, '/console/programmes');
      await page.getByRole('heading', { name: 'Programmes' }).waitFor();
      await expect.poll(() => page.locator('main').textContent()).not.toContain('Long rains');
      await page.goto(`${service.baseUrl}/console/programmes/${programmeId}`);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Could not load the programme');
      expect(await page.locator('[data-exposure]').count()).toBe(0);
      expect(requested.some((url) => url.includes(`/insurance/programmes/${programmeId}`))).toBe(true);
      await page.close();
    });
  });

  describe('the audit of a policy', () => {
    const withDatabase = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    };
    const marks = () =>
      page
        .locator('[data-events] tbody tr')
        .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-revision'), row.getAttribute('data-proof')]));

    // Every event of the log is in the tree and a signed checkpoint covers them all (the integrator signs
    // every 2 s): nothing the page shows is pending.
    beforeAll(async () => {
      const appended = await withDatabase(async (client) =>
        Number((await client.query('select count(*) as count from events')).rows[0].count),
      );
      await eventually(
        async () => ((await api.get('/audit/checkpoints/latest', insurer)).body.size ?? 0) >= appended,
        30_000,
      );
    });

    it('publishes the key that signs the checkpoints', async () => {
      const { status, body } = await api.get('/audit/keys', insurer);
      expect(status).toBe(200);
      // The sandbox signer key is PRIVATE+KEY+<name>+<key id>+…: its verifier key starts <name>+<key id>+.
      const [, , name, keyId] = SANDBOX_AUDIT_SIGNING_KEY.split('+');
      expect(body.keys).toEqual([expect.objectContaining({ name, key_id: keyId, algorithm: 'ed25519' })]);
      expect(body.keys[0].vkey.startsWith(`${name}+${keyId}+`)).toBe(true);
    });

    it('opens from the policy and shows every event proven against the signed checkpoint, from the keyboard too', async () => {
      await openPage();
      await signIn(insurer, `/console/policies/${paid.policyId}`);
      await page.getByRole('link', { name: /Audit/ }).click();
      await page.locator('[data-events]').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/console/policies/${paid.policyId}/audit`);
      const events = (await api.get(`/insurance/policies/${paid.policyId}/events`, insurer)).body.total;
      expect(events).toBeGreaterThanOrEqual(2);
      const shown = await marks();
      expect(shown).toEqual(Array.from({ length: events }, (_, revision) => [String(revision), 'proven']));
      expect(await page.getByRole('status').textContent()).toContain(`${events} of ${events} events proven`);
      expect(await page.locator('[data-mark="proven"]').first().textContent()).toMatch(/^Proven \(leaf \d+\)$/);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
      await page.close();
    });

    it('shows another organization’s token none of it', async () => {
      await openPage();
      await signIn(otherInsurer, `/console/policies/${paid.policyId}/audit`);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain(`No policy ${paid.policyId} is visible to you`);
      expect(await page.locator('[data-events]').count()).toBe(0);
      await page.close();
    });

    // Last: it leaves the log edited.
    it('marks the one event whose payload was edited in the database as failing, and only that one', async () => {
      const stream = `policy-${paid.policyId}`;
      const edited = await withDatabase(async (client) => {
        const { rows } = await client.query(
          `update events set stored_data = left(stored_data, -1) || ',"tampered":true}'
           where stream_id = $1 and stream_revision = (select max(stream_revision) from events where stream_id = $1)
           returning stream_revision`,
          [stream],
        );
        return String(rows[0].stream_revision);
      });
      await openPage();
      await signIn(insurer, `/console/policies/${paid.policyId}/audit`);
      await page.locator('[data-events]').waitFor();
      const shown = await marks();
      expect(shown.filter(([, proof]) => proof !== 'proven')).toEqual([[edited, 'failing']]);
      const mark = page.locator(`[data-revision="${edited}"] [data-mark]`);
      expect(await mark.textContent()).toBe('Failing: its stored bytes do not hash to its leaf');
      expect(await page.getByRole('status').textContent()).toContain('1 of');
      expect(await axeViolations(page)).toEqual([]);
      await page.close();
    });
  });
});
