import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { serviceEntryPoints } from '../../../scripts/service-entry-points';

// The project's processes compiled once per `vitest run` (the global setup), not once per start: under
// tsx every start loaded each of the service's modules through the loader's hooks, in both processes
// of the all-in-one service, which made booting a service most of an end-to-end file's time (see
// docs/benchmarks.md, "The test suite: where its time goes"). The same esbuild bundle the production
// image runs (scripts/production-build.ts), with two differences that keep the code's behaviour that of
// the checkout: every npm package is imported from where this checkout's install has it (its absolute
// path, as the package's own import would resolve), and every source file keeps its own import.meta.url.

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

const resolvingOutside = Symbol('resolving an npm package');

/** npm packages stay outside the bundle, imported by the absolute path this install resolves them to. */
const npmPackagesWhereInstalled: Plugin = {
  name: 'npm-packages-where-installed',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, async ({ path, kind, resolveDir, importer, pluginData }) => {
      if (path.startsWith('node:') || path.startsWith('@cropcover/') || pluginData === resolvingOutside)
        return undefined;
      const resolved = await bundler.resolve(path, { kind, resolveDir, importer, pluginData: resolvingOutside });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.external || !resolved.path ? path : resolved.path, external: true };
    });
  },
};

/** A module that asks where it is (the console's build directory, a document beside it) is told where its
 *  source is, as under tsx, not where the bundle is. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(bundler) {
    bundler.onLoad({ filter: /\.ts$/ }, ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const source = readFileSync(path, 'utf8');
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
        loader: 'ts',
      };
    });
  },
};

/** Bundles every entry point into `outdir` (`main.mjs`, `processes/<name>.mjs`, `cli/<name>.mjs`). */
export const buildServiceBundle = async (outdir: string): Promise<void> => {
  await build({
    absWorkingDir: repositoryRoot,
    entryPoints: serviceEntryPoints(repositoryRoot),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    keepNames: true,
    logLevel: 'warning',
    plugins: [npmPackagesWhereInstalled, ownImportMetaUrl],
  });
};

/** The bundled form of a service entry point (`service/src/processes/projector.ts`), when the global
 *  setup built one; undefined otherwise. */
export const bundledEntry = (source: string): string | undefined => {
  const outdir = process.env.TEST_SERVICE_BUNDLE;
  const match = /^service\/src\/(main|(?:processes|cli)\/[a-z0-9-]+)\.ts$/.exec(source);
  return outdir && match ? join(outdir, `${match[1]}.mjs`) : undefined;
};
