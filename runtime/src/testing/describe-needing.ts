import { describe, it } from 'vitest';

/** A describe block that needs something outside the code (a broker, a browser): runs when it is there;
 *  when it is not (`missing` says why and what fixes it), fails in CI, where it must be, and elsewhere is
 *  skipped with a loud warning. */
export const describeNeeding = (name: string, missing: string | undefined, body: () => void): void => {
  if (missing === undefined) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('has what it needs', () => {
        throw new Error(missing);
      });
    });
    return;
  }
  console.warn(`\n!!! SKIPPING "${name}": ${missing}\n`);
  describe.skip(name, body);
};
