import { productStreamId, sheetDigest, writePhaseTable } from '@cropcover/domain';
import { KHARIF_DEFICIT_SHEET } from '@cropcover/domain/testing';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import {
  createLogger,
  createPool,
  endPool,
  routerOf,
  SANDBOX_JWT_SECRET,
  settableClock,
  signDevToken,
} from '@cropcover/runtime';
import { createTestDatabase, startTestApp, type TestApp, type TestDatabase } from '@cropcover/runtime/testing';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTextBodyRoutes } from '../../body-limits';
import type { CommandApiDeps } from '../../command-api-deps';
import { refusalToProblem } from '../../refusal-to-problem';
import { registerProductRoute } from './post';
import { validateProductSheetRoute } from './validate/post';

// TERM-SHEETS.md §5.1 on the real HTTP stack and event store: validate and register take a sheet as its
// phase table (text/csv) beside JSON, through the one validation path — the same digest, the same rules —
// and a table that is no sheet, or a sheet that breaks a rule, is refused and records nothing.

const NOW = new Date('2026-11-28T08:00:00.000Z');
const ORG = 'org-1';
const TABLE = writePhaseTable(KHARIF_DEFICIT_SHEET);
/** The first phase's trigger (100) below its exit (40) is `trigger_exit_order` for a `below` map. */
const BACKWARDS = TABLE.replace(',below,100,40,', ',below,40,100,');

describe('a term sheet as its phase table (text/csv)', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let eventStore: EventStore;
  let app: TestApp;
  let insurer: string;

  beforeAll(async () => {
    database = await createTestDatabase('product_phase_table');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    await migrateEventStore(pool);
    eventStore = createPostgresEventStore({ pool });
    const deps = {
      eventStore,
      clock: settableClock(NOW),
      readYourWrites: { consistency: { waitFor: async () => true }, timeoutMs: 0 },
    } as unknown as CommandApiDeps;
    insurer = `Bearer ${await signDevToken({ sub: 'designer', roles: ['insurer'], org: ORG }, SANDBOX_JWT_SECRET)}`;
    const routes = [validateProductSheetRoute, registerProductRoute];
    app = await startTestApp({
      textBodyRoutes: commandTextBodyRoutes(routes),
      mount: (express) => {
        const router = Router();
        router.use(routerOf(routes, deps));
        express.use(router);
        express.use(refusalToProblem);
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await eventStore?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const post = async (path: string, body: string, contentType = 'text/csv') => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: insurer, 'content-type': contentType },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const stored = async (productId: string) => eventStore.readStream(productStreamId(ORG, productId));

  it('validates a table as the sheet it says: the digest the JSON sheet has', async () => {
    const { status, body } = await post('/insurance/products/validate', TABLE);
    expect(status).toBe(200);
    expect(body).toEqual({ valid: true, digest: sheetDigest(KHARIF_DEFICIT_SHEET) });
    const asJson = await post(
      '/insurance/products/validate',
      JSON.stringify({ sheet: KHARIF_DEFICIT_SHEET }),
      'application/json',
    );
    expect(asJson.body).toEqual(body);
  });

  it('refuses a table whose sheet breaks a rule with the rule’s code and path, as JSON’s', async () => {
    const { status, body } = await post('/insurance/products/validate', BACKWARDS);
    expect(status).toBe(422);
    expect(body).toMatchObject({
      code: 'invalid_term_sheet',
      errors: [{ code: 'trigger_exit_order', path: 'covers.0.phases.0.payout.linear.exit' }],
    });
  });

  it('refuses a table that says no sheet with each error’s row and column', async () => {
    const { status, body } = await post('/insurance/products/validate', TABLE.replace(',below,100,', ',below,lots,'));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'malformed_phase_table',
      errors: [{ path: 'rows.2.trigger', message: 'must be a number' }],
    });
  });

  it('checks the shape of the sheet a table says as a JSON body’s: 400 validation_failed at its path', async () => {
    const { status, body } = await post(
      '/insurance/products/validate',
      TABLE.replace(',sum,linear,', ',median,linear,'),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'sheet.covers.0.phases.0.aggregate' }] });
  });

  it('registers a table as version 1 of the product its query names, the sheet as JSON would be', async () => {
    const { status, body } = await post('/insurance/products?product_id=kharif-csv', TABLE);
    expect(status).toBe(201);
    expect(body).toMatchObject({ product_id: 'kharif-csv', version: 1, digest: sheetDigest(KHARIF_DEFICIT_SHEET) });
    const [registered] = await stored('kharif-csv');
    expect(registered?.data).toMatchObject({ sheet: JSON.parse(JSON.stringify(KHARIF_DEFICIT_SHEET)) });
  });

  it('records nothing for a table that is refused, nor for a product named twice', async () => {
    const refused = [
      await post('/insurance/products?product_id=kharif-bad', TABLE.replace(',below,100,', ',below,lots,')),
      await post('/insurance/products?product_id=kharif-bad', BACKWARDS),
      await post('/insurance/products?product_id=kharif-bad', 'peril\n'),
      await post(
        '/insurance/products?product_id=kharif-bad',
        JSON.stringify({ product_id: 'kharif-bad', sheet: KHARIF_DEFICIT_SHEET }),
        'application/json',
      ),
    ];
    expect(refused.map(({ status, body }) => [status, body.code])).toEqual([
      [400, 'malformed_phase_table'],
      [422, 'invalid_term_sheet'],
      [400, 'malformed_phase_table'],
      [400, 'validation_failed'],
    ]);
    const unnamed = await post('/insurance/products', TABLE);
    expect(unnamed).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', errors: [{ path: 'product_id' }] },
    });
    expect(await stored('kharif-bad')).toEqual([]);
  });
});
