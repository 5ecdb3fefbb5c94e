import { commandRoutes } from '@cropcover/command-api';
import { apiOperations } from '@cropcover/contracts';
import { queryRoutes } from '@cropcover/query-api';
import { describe, expect, it } from 'vitest';

// A client typed by `apiOperations` (the console's) is typed as the routes really are only while the map
// holds, for every listed route, the very schemas its declaration holds, and nothing else.

const declared = [...queryRoutes, ...commandRoutes].map((route) => ({
  operation: `${route.method.toUpperCase()} ${route.path}`,
  schemas: {
    params: route.request?.params,
    query: route.request?.query,
    headers: route.request?.headers,
    body: route.request?.body,
    bodyRequired: route.request?.bodyRequired,
    success: route.success.schema,
  },
}));

const mapped = new Map<string, Readonly<Record<string, unknown>>>(Object.entries(apiOperations));

describe('the operations map clients are typed by', () => {
  it('names every listed route and nothing else', () => {
    expect([...mapped.keys()].sort()).toEqual(declared.map(({ operation }) => operation).sort());
  });

  it("holds each route's own schemas: its request parts and its success body", () => {
    for (const { operation, schemas } of declared) {
      for (const [part, schema] of Object.entries(schemas))
        expect(mapped.get(operation)?.[part] === schema, `${operation}: ${part} is not the declared one`).toBe(true);
    }
  });
});
