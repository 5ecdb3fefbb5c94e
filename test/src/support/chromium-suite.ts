import { describeNeeding } from '@cropcover/runtime/testing';
import { CHROMIUM_CANDIDATES, chromiumPath } from './chromium';

/** A describe block that needs Chromium: runs, fails (CI) or is skipped with a warning (elsewhere). */
export const describeWithChromium = (name: string, body: () => void): void =>
  describeNeeding(
    name,
    chromiumPath === undefined
      ? `no Chromium at ${CHROMIUM_CANDIDATES.join(', ')}: run \`apt-get install chromium\` or set CHROMIUM_PATH`
      : undefined,
    body,
  );
