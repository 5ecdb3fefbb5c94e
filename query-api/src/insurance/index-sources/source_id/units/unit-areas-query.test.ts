import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UnitPolygon } from '@cropcover/contracts';
import { indexSourceStream, unitAreasStream } from '@cropcover/domain';
import { gridSourceRegistered, stationSourceRegistered } from '@cropcover/domain/testing';
import { readModelProjections, rebuildProjections } from '@cropcover/projector';
import { openProjectorTestDatabase, type ProjectorTestDatabase, readWholeLog } from '@cropcover/projector/testing';
import { createReadModelConsistency, type ReadModelConsistency } from '@cropcover/read-store';
import {
  createHttpApp,
  createLogger,
  createMetrics,
  finalizeHttpApp,
  loadConfig,
  settableClock,
  signDevToken,
} from '@cropcover/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRouter } from '../../../../query-router';

// INDEX-DATA §2.4: a source's unit areas listed over real HTTP, from the read model the real projector
// built from a real log; each with its outline, its polygon only when asked for.

const SECRET = 'unit-areas-query-test-secret-of-at-least-32-characters';
const auditor = { sub: 'auditor-b', org: 'org-b', roles: ['auditor'] };
const REGISTERED_AT = '2026-03-05T00:00:00.000Z';

/** A 0.1° square: on the 0.05° grid, the four cells whose centres lie inside it. */
const square: UnitPolygon = {
  type: 'Polygon',
  coordinates: [
    [
      [36.7, -1.3],
      [36.8, -1.3],
      [36.8, -1.2],
      [36.7, -1.2],
      [36.7, -1.3],
    ],
  ],
};
/** Two small triangles holding no cell centre: each reads the one cell containing its centroid. */
const islands: UnitPolygon = {
  type: 'MultiPolygon',
  coordinates: [
    [
      [
        [37.001, -1.001],
        [37.002, -1.001],
        [37.001, -1.002],
        [37.001, -1.001],
      ],
    ],
    [
      [
        [37.003, -1.003],
        [37.004, -1.003],
        [37.003, -1.004],
        [37.003, -1.003],
      ],
    ],
  ],
};

const metadata = (actor: string, organization: string, at: string) => ({
  event_id: crypto.randomUUID(),
  occurred_at: at,
  actor,
  organization_id: organization,
  correlation_id: crypto.randomUUID(),
  causation_id: null,
  schema_version: 1,
  platform_version: '0.0.0-test',
});

describe('GET /insurance/index-sources/{source_id}/units', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let consistency: ReadModelConsistency;
  let baseUrl: string;

  const get = async (path: string, caller: { sub: string; org?: string; roles: string[] } = auditor) => {
    const token = await signDevToken(caller, SECRET);
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    t = await openProjectorTestDatabase('query_unit_areas');
    for (const { type, data } of [gridSourceRegistered, stationSourceRegistered]) {
      await t.eventStore.append(
        indexSourceStream(data.source_id),
        [{ type, data, metadata: metadata(data.registered_by, data.organization_id, data.registered_at) }],
        'no_stream',
      );
    }
    const units = (sourceId: string, list: { unit_id: string; name: string; polygon: UnitPolygon }[]) =>
      t.eventStore.append(
        unitAreasStream(sourceId),
        [
          {
            type: 'UnitAreasRegistered',
            data: { source_id: sourceId, units: list, registered_by: 'feed', registered_at: REGISTERED_AT },
            metadata: metadata('feed', 'org-data', REGISTERED_AT),
          },
        ],
        'no_stream',
      );
    await units('src-grid', [
      { unit_id: 'marsabit-2', name: 'Marsabit North', polygon: islands },
      { unit_id: 'marsabit-10', name: 'Marsabit Central', polygon: square },
      { unit_id: 'isiolo', name: 'Isiolo', polygon: square },
    ]);
    await units('src-station', [{ unit_id: 'laikipia', name: 'Laikipia', polygon: square }]);
    await readWholeLog(t.eventStore, 4);
    await rebuildProjections({
      eventStore: t.eventStore,
      db: t.db,
      projections: readModelProjections.filter((projection) =>
        ['index_sources', 'index_source_units'].includes(projection.name),
      ),
    });

    const clock = settableClock('2026-04-01T00:00:00.000Z');
    const app = createHttpApp({
      config: loadConfig({ AUTH_JWT_SECRET: SECRET }),
      logger: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: [],
      openApiDocument: {},
      asyncApiDocument: {},
      clock,
    });
    consistency = createReadModelConsistency({
      pool: t.pool,
      projectionNames: ['index_sources', 'index_source_units'],
      logger: t.logger,
    });
    app.use(
      createQueryRouter({ db: t.db, consistency, readYourWritesTimeoutMs: 1000, eventStore: t.eventStore, clock }),
    );
    finalizeHttpApp(app);
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await consistency?.close();
    await t?.close();
  });

  it("lists a grid source's units by unit_id, each with its box, its size and the cells it reads", async () => {
    const { status, body } = await get('/insurance/index-sources/src-grid/units');
    expect(status).toBe(200);
    expect(body).toEqual({
      source_id: 'src-grid',
      items: [
        {
          unit_id: 'isiolo',
          name: 'Isiolo',
          bbox: [36.7, -1.3, 36.8, -1.2],
          parts: 1,
          positions: 5,
          cells: 4,
          registered_at: REGISTERED_AT,
        },
        {
          unit_id: 'marsabit-10',
          name: 'Marsabit Central',
          bbox: [36.7, -1.3, 36.8, -1.2],
          parts: 1,
          positions: 5,
          cells: 4,
          registered_at: REGISTERED_AT,
        },
        {
          unit_id: 'marsabit-2',
          name: 'Marsabit North',
          bbox: [37.001, -1.004, 37.004, -1.001],
          parts: 2,
          positions: 8,
          cells: 1,
          registered_at: REGISTERED_AT,
        },
      ],
      total: 3,
      page: 1,
      page_size: 20,
    });
  });

  it('pages, and gives each polygon when asked for', async () => {
    const { body } = await get('/insurance/index-sources/src-grid/units?page=2&page_size=1&polygons=true');
    expect(body).toMatchObject({ total: 3, page: 2, page_size: 1 });
    expect(body.items).toEqual([expect.objectContaining({ unit_id: 'marsabit-10', polygon: square })]);
  });

  it('counts no cells on a source without a grid', async () => {
    const { body } = await get('/insurance/index-sources/src-station/units');
    expect(body.items).toEqual([expect.objectContaining({ unit_id: 'laikipia', cells: null })]);
  });

  it('answers an empty list for a source without units, 404 for no source, 400 for a bad query', async () => {
    await t.eventStore.append(
      indexSourceStream('src-bare'),
      [
        {
          type: gridSourceRegistered.type,
          data: { ...gridSourceRegistered.data, source_id: 'src-bare' },
          metadata: metadata('feed', 'org-data', REGISTERED_AT),
        },
      ],
      'no_stream',
    );
    await readWholeLog(t.eventStore, 5);
    await rebuildProjections({
      eventStore: t.eventStore,
      db: t.db,
      projections: readModelProjections.filter((projection) => projection.name === 'index_sources'),
    });
    expect((await get('/insurance/index-sources/src-bare/units')).body).toMatchObject({ items: [], total: 0 });
    const missing = await get('/insurance/index-sources/src-none/units');
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await get('/insurance/index-sources/src-grid/units?polygons=yes')).status).toBe(400);
    expect((await get('/insurance/index-sources/src-grid/units?page_size=101')).status).toBe(400);
    expect(
      (await get('/insurance/index-sources/src-grid/units', { sub: 'nobody', org: 'org-a', roles: [] })).status,
    ).toBe(403);
  });
});
