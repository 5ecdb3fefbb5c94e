import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every process, the all-in-one service and every operations command, by bundle name: what the production
 *  image bundles (production-build.ts) and the test suite's bundle of the checkout (test/src/support). A new
 *  file in one of these places is in both without an edit here. */
export const serviceEntryPoints = (root: string): Record<string, string> => {
  const entries: Record<string, string> = { main: 'service/src/main.ts' };
  for (const folder of ['processes', 'cli'])
    for (const file of readdirSync(join(root, 'service/src', folder)))
      if (file.endsWith('.ts') && !file.endsWith('.test.ts'))
        entries[`${folder}/${file.slice(0, -'.ts'.length)}`] = `service/src/${folder}/${file}`;
  return entries;
};
