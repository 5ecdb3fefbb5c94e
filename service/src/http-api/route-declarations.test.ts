import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandRoutes } from '@cropcover/command-api';
import type { z } from '@cropcover/contracts';
import { queryRoutes } from '@cropcover/query-api';
import type { Route } from '@cropcover/runtime';
import { describe, expect, it } from 'vitest';

// Issue 23: every route is declared once, in the file its path and method name, and listed once; the
// routers and the OpenAPI document are built from the lists, and nothing else registers a path.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const METHOD_FILES = new Set(['get.ts', 'post.ts', 'put.ts', 'patch.ts', 'delete.ts']);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

const isRoute = (value: unknown): value is Route<unknown> =>
  typeof value === 'object' && value !== null && 'serve' in value && 'path' in value && 'method' in value;

/** Every route a method file of the package exports, with the file it is declared in. */
const declaredIn = async (pkg: string): Promise<{ file: string; route: Route<unknown> }[]> => {
  const src = join(root, pkg, 'src');
  const files = filesUnder(src).filter((file) => METHOD_FILES.has(file.split('/').at(-1)!));
  const found = await Promise.all(
    files.map(async (file) =>
      Object.values(await import(file))
        .filter(isRoute)
        .map((route) => ({ file: relative(src, file), route })),
    ),
  );
  return found.flat();
};

/** `POST /farms/{farm_id}/fields` is declared in `farms/farm_id/fields/post.ts`. */
const fileOf = (route: Route<unknown>): string => `${route.path.slice(1).replace(/[{}]/g, '')}/${route.method}.ts`;

describe.each([
  ['command-api', commandRoutes as readonly Route<unknown>[]],
  ['query-api', queryRoutes as readonly Route<unknown>[]],
])('the routes of %s', (pkg, listed) => {
  it('are each declared in the file of their path and method, and listed once', async () => {
    const declared = await declaredIn(pkg);
    expect(declared.map(({ file, route }) => [file, fileOf(route)])).toEqual(declared.map(({ file }) => [file, file]));
    const operation = (route: Route<unknown>) => `${route.method.toUpperCase()} ${route.path}`;
    const listedOperations = listed.map(operation);
    expect(new Set(listedOperations).size).toBe(listed.length);
    expect([...listedOperations].sort()).toEqual(declared.map(({ route }) => operation(route)).sort());
    for (const route of listed) expect(route.tags, operation(route)).toHaveLength(1);
  });

  it('take GET on the query side and every other method on the command side', () => {
    for (const route of listed) expect(route.method === 'get', route.path).toBe(pkg === 'query-api');
  });

  it('declare as params exactly the parameters of their path', () => {
    for (const route of listed) {
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const params = route.request?.params as z.ZodObject | undefined;
      expect(Object.keys(params?.shape ?? {}).sort(), `${route.method} ${route.path}`).toEqual(inPath);
    }
  });

  it('are registered by their declarations alone', () => {
    // The console's pages (query-api/src/console/) are HTML, not API operations: the document lists none.
    const registering = filesUnder(join(root, pkg, 'src'))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => !relative(join(root, pkg, 'src'), file).startsWith('console/'))
      .filter((file) => /\.(get|post|put|patch|delete|all)\(\s*['"`]\//.test(readFileSync(file, 'utf8')));
    expect(registering).toEqual([]);
  });
});
