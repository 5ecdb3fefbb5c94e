import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { parse } from 'yaml';
import { serviceEntryPoints } from './service-entry-points';

// What the production image runs, built without Docker (`scripts/cropcover build OUT`, the Dockerfile's
// build stage). `bundle OUT`: one ES module per entry point under OUT/dist — our TypeScript compiled once
// here, so no compiler runs at start — with the workspace packages inside and every npm package left
// outside, plus the manifests and lockfile that install the production dependencies into OUT.
// `verify OUT`: after that install, every npm package the bundles import is the version the bundle was
// built against. Why esbuild bundles and not tsc per package: docs/decisions.md, "The production image".

const root = fileURLToPath(new URL('..', import.meta.url));

const workspacePackages = (): string[] => parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')).packages;

const packageNameOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The version of `name` that the workspace package holding `importer` gets in this install. */
const installedVersion = (importer: string, name: string): string => {
  const workspacePackage = relative(root, importer).split(sep)[0]!;
  const manifest = join(realpathSync(join(root, workspacePackage, 'node_modules', name)), 'package.json');
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
};

/** Leaves every npm package outside the bundle (their own files, native parts and workers stay as
 *  published) and notes the version each was built against; our packages go in. */
const npmPackagesOutside = (versions: Map<string, Map<string, string>>): Plugin => ({
  name: 'npm-packages-outside',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      if (path.startsWith('node:') || path.startsWith('@cropcover/')) return undefined;
      const name = packageNameOf(path);
      const version = installedVersion(importer, name);
      const seen = versions.get(name) ?? new Map<string, string>();
      seen.set(version, relative(root, importer));
      versions.set(name, seen);
      return { path, external: true };
    });
  },
});

const bundle = async (out: string): Promise<void> => {
  const versions = new Map<string, Map<string, string>>();
  await build({
    absWorkingDir: root,
    entryPoints: serviceEntryPoints(root),
    outdir: join(out, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    keepNames: true,
    logLevel: 'warning',
    plugins: [npmPackagesOutside(versions)],
  });
  // One flat node_modules serves every bundle, so each npm package must be one version across them.
  const conflicts = [...versions].filter(([, seen]) => seen.size > 1);
  if (conflicts.length > 0)
    throw new Error(
      `one version per npm package, please: ${conflicts
        .map(([name, seen]) => `${name} is ${[...seen].map(([version, by]) => `${version} (${by})`).join(' and ')}`)
        .join('; ')}`,
    );
  const external = Object.fromEntries([...versions].map(([name, seen]) => [name, [...seen.keys()][0]!]).sort());
  writeFileSync(join(out, 'dist/npm-packages.json'), `${JSON.stringify(external, null, 2)}\n`);

  // The production install: the lockfile as it is, and every workspace manifest it names.
  for (const file of [
    'package.json',
    'pnpm-workspace.yaml',
    'pnpm-lock.yaml',
    ...workspacePackages().map((pkg) => `${pkg}/package.json`),
  ]) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    copyFileSync(join(root, file), join(out, file));
  }
};

const verify = (out: string): void => {
  const expected: Record<string, string> = JSON.parse(readFileSync(join(out, 'dist/npm-packages.json'), 'utf8'));
  const wrong = Object.entries(expected).flatMap(([name, version]) => {
    const manifest = join(out, 'node_modules', name, 'package.json');
    const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : 'missing';
    return installed === version ? [] : [`${name}: built against ${version}, installed ${installed}`];
  });
  if (wrong.length > 0) throw new Error(`the production install does not match the bundles:\n${wrong.join('\n')}`);
};

const [command, out] = process.argv.slice(2);
if (command === 'bundle' && out) await bundle(out);
else if (command === 'verify' && out) verify(out);
else {
  process.stderr.write('usage: production-build.ts bundle|verify OUT\n');
  process.exit(2);
}
