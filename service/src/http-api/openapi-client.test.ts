import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi-document';

// Issue 32: an integrator generates a client from /openapi.json with openapi-typescript and calls it
// through openapi-fetch, as its README shows. What such a client lets `tsc` accept is what the document
// promises; paging with numbers (the seed says page and page_size are integers) must type-check.

const openapiFetch = fileURLToPath(new URL('../../../node_modules/openapi-fetch', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'cropcover-openapi-client-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(async () => {
  const schema = astToString(await openapiTS(openApiDocument('0.0.0-test') as Parameters<typeof openapiTS>[0]));
  writeFileSync(join(scratch, 'cropcover-api.d.ts'), schema);
});

/** The type errors of one client file beside the generated schema, as `tsc --strict` reports them. */
const typeErrorsOf = (calls: string): string[] => {
  const file = join(scratch, 'client.ts');
  writeFileSync(
    file,
    `import createClient from 'openapi-fetch';
import type { paths } from './cropcover-api';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
${calls}
`,
  );
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    paths: { 'openapi-fetch': [openapiFetch] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
};

describe('a client generated from the OpenAPI document by openapi-typescript', () => {
  it('pages the policies list and a policy’s evaluations with numbers', () => {
    expect(
      typeErrorsOf(`
export const policies = () =>
  client.GET('/insurance/policies', { params: { query: { status: 'active', page: 1, page_size: 20 } } });
export const evaluations = () =>
  client.GET('/insurance/policies/{policy_id}/evaluations', {
    params: { path: { policy_id: 'a-policy' }, query: { page: 2, page_size: 100 } },
  });
export const pageOf = async () => (await policies()).data?.page satisfies number | undefined;
`),
    ).toEqual([]);
  });

  it('refuses a page given as text, so the check above is a real one', () => {
    expect(
      typeErrorsOf(
        `export const policies = () => client.GET('/insurance/policies', { params: { query: { page: '1' } } });`,
      ),
    ).not.toEqual([]);
  });
});
