import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AuditBundle, type BundleVerdict, parseVerifierKey, verifyAuditBundle } from '@cropcover/verifiable-log';

// `npm run audit -- verify`: reads the bundle, the keys and the held checkpoints from files and checks them
// with verifiable-log alone: no configuration, no database, nothing of the service.

export interface VerifyFiles {
  readonly bundlePath: string;
  /** Verifier keys (`<name>+<key id>+<base64>`), or files holding one per line. */
  readonly keys: readonly string[];
  readonly checkpointsDir?: string;
}

const keyTexts = async (key: string): Promise<string[]> => {
  if (/^[^\s+]+\+[0-9a-f]{8}\+/i.test(key)) return [key];
  return (await readFile(key, 'utf8')).split('\n').filter((line) => line.trim() !== '');
};

export const verifyAuditBundleFiles = async ({
  bundlePath,
  keys,
  checkpointsDir,
}: VerifyFiles): Promise<BundleVerdict> => {
  const bundle = JSON.parse(await readFile(bundlePath, 'utf8')) as AuditBundle;
  const verifiers = (await Promise.all(keys.map(keyTexts))).flat().map(parseVerifierKey);
  const held = checkpointsDir
    ? await Promise.all(
        (await readdir(checkpointsDir))
          .filter((name) => name.endsWith('.checkpoint'))
          .map((name) => readFile(join(checkpointsDir, name), 'utf8')),
      )
    : [];
  return verifyAuditBundle(bundle, verifiers, held);
};
