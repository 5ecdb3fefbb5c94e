import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi-document';

// Issue 13, items 1-3: a document third-party tools accept — named operations, servers, licence, the
// webhook CropCover sends, and the statuses and headers the HTTP layer adds to every operation.

const document = openApiDocument('0.0.0-test');
type Operation = {
  operationId?: string;
  responses: Record<string, { headers?: Record<string, unknown> }>;
  parameters?: { name: string; in: string }[];
};
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
);

describe('the OpenAPI document', () => {
  it('names every operation once', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('postFarmsFarmIdFields');
  });

  it('has servers, a licence, and the trigger.breached webhook', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(document.info.license).toEqual({ name: 'Proprietary' });
    expect(document.webhooks?.['trigger.breached']?.post?.operationId).toBe('triggerBreached');
  });

  it('lists the statuses the HTTP layer answers on every operation, and their headers', () => {
    for (const { path, method, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      const where = `${method} ${path}`;
      expect(statuses, where).toEqual(expect.arrayContaining(['401', '403', '429']));
      if (method === 'post') expect(statuses, where).toEqual(expect.arrayContaining(['409', '413', '415', '422']));
      if (method === 'put') expect(statuses, where).toEqual(expect.arrayContaining(['413', '415']));
      expect(Object.keys(operation.responses['429']!.headers ?? {}), where).toContain('Retry-After');
      const created = operation.responses['201'];
      if (created)
        expect(Object.keys(created.headers ?? {}), where).toEqual(
          expect.arrayContaining(['Location', 'Consistency-Token']),
        );
      const header = method === 'post' ? 'Idempotency-Key' : method === 'get' ? 'Consistency-Token' : undefined;
      if (header)
        expect(
          operation.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === header),
          where,
        ).toBe(true);
    }
  });
});
