import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repositoryRoot, TEST_JWT_SECRET } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';

// `npm run demo` as the README's second walk-through runs it, against the service as `npm start` runs it.

const suite = serviceUnderTest('e2e_demo', { MONITOR_ENABLED: 'false' });
const insurer = { sub: 'someone-at-the-insurer', org: 'demo-insurer', roles: ['insurer'] };

const runDemo = async (): Promise<string> =>
  (
    await promisify(execFile)('npm', ['run', 'demo', '--silent'], {
      cwd: repositoryRoot,
      env: { ...process.env, BASE_URL: suite.service.baseUrl, AUTH_JWT_SECRET: TEST_JWT_SECRET },
    })
  ).stdout;

describe('npm run demo', () => {
  it('walks a flood from one grid cell’s readings to two fields’ payouts, with a backtest on last season and a refused known loss', async () => {
    const stdout = await runDemo();
    expect(stdout).toContain('360 days of rainfall for the grid cell and 720 field readings');
    expect(stdout).toContain('flood reads grid cell -0.35,36.05 of source');
    // One past season (term − 1 year) is complete: its days from a year ago on hold 359 of 365 readings.
    // Z = 1/11. Flood: last year's 200 mm flood is severity 1/3 (333,333 ppm) × 1.3 loading, blended with
    // the base 0.03: (0.4333329 + 10 × 0.03) / 11 = 0.0666666…; storm never blew: (0 + 10 × 0.02) / 11.
    // Premium = 250,000 × 0.9333329 / 11 = 21,212.1113… → KES 21,212.11.
    expect(stdout).toContain('premium KES 21,212.11, status active');
    expect(stdout).toContain('flood  rate 0.066667 (burning_cost, 1 past season(s), credibility 0.090909)');
    expect(stdout).toContain('storm  rate 0.018182 (burning_cost, 1 past season(s), credibility 0.090909)');
    expect(stdout).toMatch(/Hill plot lies in the same cell \(-0\.35,36\.05\): flood cover of KES 100,000\.00 issued/);
    expect(stdout).toContain('5 more days for the cell and 10 field readings');
    expect(stdout).toMatch(
      /Backtest.*\n\s+flood\s+max_5day_rainfall_mm = 200 \(threshold 150\): BREACHED, severity 33\.33 %/,
    );
    expect(stdout).toContain('would have paid KES 83,333.33');
    expect(stdout).toContain('max_5day_rainfall_mm = 240 (threshold 150): BREACHED, severity 60 %');
    expect(stdout).toContain('payout KES 150,000.00 in 1 payout(s); policy is now claimed');
    expect(stdout).toContain("Mwangi farm's flood cover pays KES 60,000.00 from the same series");
    // Once the flood is in the data, the same cover is a known loss: refused, nothing issued.
    expect(stdout).toContain('is refused: 422 known_loss');
    // Issue 24: a three-phase deficit-rainfall product drawn for today: its sowing week (7 days back to
    // today, 8 mm against a trigger of 20 and an exit of 4: 12/16 of Rs 6,000) pays live once its window
    // has closed; its dekadal phases pay in last season's backtest (G21's figures: 60 mm is the vegetative
    // exit, a 150 mm dekad is capped at 60 mm: (160 − 60)/120 of Rs 12,000).
    expect(stdout).toMatch(
      /12\. Product {2}demo-kharif-deficit v1 registered by demo-insurer \(sha256:[0-9a-f]{12}…\): 3 phases/,
    );
    expect(stdout).toMatch(
      /13\. Policy .*demo-kharif-deficit v1, season \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(from 7 days back\), INR 30,000\.00/,
    );
    expect(stdout).toMatch(/14\. Live .*8 days of rain arrive; .*the sowing phase pays INR 4,500\.00/);
    expect(stdout).toMatch(
      /sowing +\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} closed +8 mm \(trigger 20\): INR 4,500\.00\n +vegetative .* not_open/,
    );
    expect(stdout).toMatch(
      /the cover would have paid INR 13,500\.00\n.*\n +vegetative .* closed +60 mm \(trigger 150\): INR 9,000\.00/,
    );
    expect(stdout).toMatch(
      /the cover would have paid INR 23,500\.00\n(.*\n){2} +flowering .* closed +60 mm \(trigger 160\): INR 10,000\.00/,
    );
    expect(stdout).toMatch(/flood is already breached on the data available: max_5day_rainfall_mm 240 ≥ threshold 150/);

    const policyId = /Policy {4}(\S+) issued/.exec(stdout)?.[1];
    const policy = await suite.api.get(`/insurance/policies/${policyId}`, insurer);
    expect(policy.body).toMatchObject({ status: 'claimed', perils: ['flood', 'storm'], currency: 'KES' });
    // The refused issue recorded nothing: the insurer holds the two policies issued before the flood and
    // the one on its own product.
    const policies = await suite.api.get('/insurance/policies', insurer);
    expect(policies.body.total).toBe(3);
  }, 60_000);

  // Issue 32: a newcomer runs the demo again against the same service; the second run used to stop at the
  // product with 409 product_exists. It tells the same story on the product the first run registered.
  it('runs again against the same service, on the product its first run registered', async () => {
    const stdout = await runDemo();
    expect(stdout).toContain('premium KES 21,212.11, status active');
    expect(stdout).toContain('payout KES 150,000.00 in 1 payout(s); policy is now claimed');
    expect(stdout).toContain('is refused: 422 known_loss');
    // The same day draws the same sheet, so the version the first run registered (a run after midnight UTC
    // draws the next day's sheet: the next version).
    expect(stdout).toMatch(
      /12\. Product {2}demo-kharif-deficit v\d+ of demo-insurer, on the product an earlier run registered \(sha256:[0-9a-f]{12}…\): 3 phases/,
    );
    expect(stdout).toMatch(/14\. Live .*8 days of rain arrive; .*the sowing phase pays INR 4,500\.00/);
    expect(stdout).toMatch(/the cover would have paid INR 23,500\.00/);
    const product = await suite.api.get('/insurance/products/demo-kharif-deficit', insurer);
    expect(product.status).toBe(200);
    const policies = await suite.api.get('/insurance/policies', insurer);
    expect(policies.body.total).toBe(6);
  }, 60_000);
});
