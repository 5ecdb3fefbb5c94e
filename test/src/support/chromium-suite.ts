import { describe, it } from 'vitest';
import { CHROMIUM_CANDIDATES, chromiumPath } from './chromium';

/** A describe block that needs Chromium: runs, fails (CI) or is skipped with a warning (elsewhere). */
export const describeWithChromium = (name: string, body: () => void): void => {
  if (chromiumPath !== undefined) {
    describe(name, body);
    return;
  }
  const reason = `no Chromium at ${CHROMIUM_CANDIDATES.join(', ')}: run \`apt-get install chromium\` or set CHROMIUM_PATH`;
  if (process.env.CI) {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(reason);
      });
    });
    return;
  }
  console.warn(`\n!!! SKIPPING "${name}": ${reason}\n`);
  describe.skip(name, body);
};
