import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

// The console's tests drive Debian's Chromium through playwright-core: no browser is downloaded (nothing
// but the package registries is reachable here). `npm test` installs the `chromium` package when it is
// missing and apt-get can (scripts/cropcover); CHROMIUM_PATH names another build.

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export const chromiumPath: string | undefined = [process.env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES].find(
  (path): path is string => path !== undefined && path !== '' && existsSync(path),
);

/** Headless, and quiet on the network: no update checks, sync or other calls a test would not expect. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the console's suites cannot run here, and what fixes it; undefined when Chromium is there. */
export const chromiumMissing: string | undefined =
  chromiumPath === undefined
    ? `no Chromium at ${CHROMIUM_CANDIDATES.join(', ')}: run \`apt-get install chromium\` or set CHROMIUM_PATH`
    : undefined;

export const launchChromium = (): Promise<Browser> => {
  if (chromiumPath === undefined) throw new Error('no Chromium found');
  return chromium.launch({ executablePath: chromiumPath, args: FLAGS });
};

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly help: string;
  readonly nodes: readonly string[];
}

/** What axe-core finds on the page as it stands. Its source is evaluated through the debugging protocol,
 *  which the page's Content-Security-Policy does not govern (an injected script tag would be refused). */
export const axeViolations = async (page: Page): Promise<AxeViolation[]> => {
  await page.evaluate(axeSource);
  const violations = await page.evaluate<{ id: string; help: string; nodes: { target: unknown[] }[] }[]>(
    'axe.run().then((results) => results.violations)',
  );
  return violations.map((violation) => ({
    id: violation.id,
    help: violation.help,
    nodes: violation.nodes.map((node) => JSON.stringify(node.target)),
  }));
};
