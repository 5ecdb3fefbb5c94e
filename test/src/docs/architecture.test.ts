import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repositoryRoot } from '../support/service-process';

// docs/architecture.md promises a shape: packages import only packages below them, the APIs never reach
// into the projector or the workers, and test helpers stay out of production code. These checks keep
// that promise true as the code moves.

const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');

const packages: string[] = parse(read('pnpm-workspace.yaml')).packages;

const workspaceDependencies = (pkg: string): string[] =>
  Object.keys(JSON.parse(read(`${pkg}/package.json`)).dependencies ?? {})
    .filter((name) => name.startsWith('@cropcover/'))
    .map((name) => name.slice('@cropcover/'.length));

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(repositoryRoot, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`;
    if (statSync(join(repositoryRoot, path)).isDirectory()) return entry === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });

// The end-to-end suites' support (test/src/support) serves tests alone, as a package's testing/ does.
const isTestOnly = (path: string) =>
  path.endsWith('.test.ts') || path.includes('/testing/') || path.startsWith('test/src/support/');

const importsOf = (path: string): string[] =>
  [...read(path).matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!);

describe('the package graph', () => {
  it('has no cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (pkg: string, path: string[]): void => {
      if (done.has(pkg)) return;
      expect(visiting.has(pkg), `cycle: ${[...path, pkg].join(' → ')}`).toBe(false);
      visiting.add(pkg);
      for (const dependency of workspaceDependencies(pkg)) visit(dependency, [...path, pkg]);
      visiting.delete(pkg);
      done.add(pkg);
    };
    for (const pkg of packages) visit(pkg, []);
  });

  it('keeps the APIs out of the projector and the workers, and the domain free of infrastructure', () => {
    for (const api of ['command-api', 'query-api'])
      expect(workspaceDependencies(api)).not.toEqual(expect.arrayContaining(['projector']));
    for (const api of ['command-api', 'query-api'])
      expect(workspaceDependencies(api)).not.toEqual(expect.arrayContaining(['workers']));
    expect(workspaceDependencies('domain')).toEqual(['contracts']);
  });

  it('is the map docs/architecture.md draws', () => {
    const map = read('docs/architecture.md');
    for (const pkg of packages) expect(map, pkg).toContain(`\`${pkg}/\``);
  });
});

describe('production code', () => {
  const production = packages.flatMap((pkg) => sourceFiles(`${pkg}/src`)).filter((path) => !isTestOnly(path));

  it('never imports a test helper', () => {
    const offending = production.flatMap((path) =>
      importsOf(path)
        .filter((specifier) => /(^|\/)testing(\/|$)|\.fixture$/.test(specifier))
        .map((specifier) => `${path} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('is reached through a deliberate public face: each package index names what it exports', () => {
    // Issue 23: `export *` of a folder made every name of the domain (230) part of its face. Table and
    // port types may still be re-exported as a whole (`export type *`).
    const starred = packages
      .map((pkg) => `${pkg}/src/index.ts`)
      .filter((index) => statSync(join(repositoryRoot, index), { throwIfNoEntry: false }))
      .filter((index) => /^export \* from/m.test(read(index)));
    expect(starred).toEqual([]);
  });

  it('reaches another package only through its name, never by a relative path', () => {
    const offending = production.flatMap((path) =>
      importsOf(path)
        .filter((specifier) => specifier.startsWith('.'))
        .filter((specifier) => {
          const target = relative(repositoryRoot, normalize(join(repositoryRoot, dirname(path), specifier)));
          return target.split('/')[0] !== path.split('/')[0];
        })
        .map((specifier) => `${path} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
