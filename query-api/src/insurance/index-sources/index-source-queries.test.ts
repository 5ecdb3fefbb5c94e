import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UnitPolygon } from '@cropcover/contracts';
import { indexSourceStream, unitAreasStream } from '@cropcover/domain';
import { fieldSourceRegistered, gridSourceRegistered, stationSourceRegistered } from '@cropcover/domain/testing';
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
import { createQueryRouter } from '../../query-router';

// The index source read API over real HTTP, on the read model the real projector built from a real log.

const SECRET = 'index-source-queries-test-secret-of-at-least-32-characters';

interface Caller {
  readonly sub: string;
  readonly org?: string;
  readonly roles: readonly string[];
}
const insurer: Caller = { sub: 'insurer-a', org: 'org-a', roles: ['insurer'] };
const auditor: Caller = { sub: 'auditor-b', org: 'org-b', roles: ['auditor'] };
const provider: Caller = { sub: 'feed', org: 'org-data', roles: ['data_provider'] };

const sources = [
  stationSourceRegistered,
  { ...gridSourceRegistered, data: { ...gridSourceRegistered.data, registered_at: '2026-03-02T00:00:00.000Z' } },
  {
    ...fieldSourceRegistered,
    data: { ...fieldSourceRegistered.data, organization_id: 'org-other', registered_at: '2026-03-03T00:00:00.000Z' },
  },
];

const UNITS_REGISTERED_AT = '2026-03-05T00:00:00.000Z';

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
/** Two small triangles holding no cell centre: the unit reads the one cell containing its centroid. */
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

/** The unit areas registered on two sources; the field source has none. */
const unitAreas = [
  {
    sourceId: 'src-grid',
    units: [
      { unit_id: 'marsabit-2', name: 'Marsabit North', polygon: islands },
      { unit_id: 'marsabit-10', name: 'Marsabit Central', polygon: square },
      { unit_id: 'isiolo', name: 'Isiolo', polygon: square },
    ],
  },
  { sourceId: 'src-station', units: [{ unit_id: 'laikipia', name: 'Laikipia', polygon: square }] },
];

const metadataOf = (actor: string, organizationId: string, at: string) => ({
  event_id: crypto.randomUUID(),
  occurred_at: at,
  actor,
  organization_id: organizationId,
  correlation_id: crypto.randomUUID(),
  causation_id: null,
  schema_version: 1,
  platform_version: '0.0.0-test',
});

describe('index source queries', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let consistency: ReadModelConsistency;
  let baseUrl: string;

  const get = async (path: string, caller: Caller) => {
    const token = await signDevToken(caller, SECRET);
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as any };
  };
  const ids = (body: { items: { source_id: string }[] }) => body.items.map((item) => item.source_id);

  beforeAll(async () => {
    t = await openProjectorTestDatabase('query_index_sources');
    for (const { type, data } of sources) {
      await t.eventStore.append(
        indexSourceStream(data.source_id),
        [{ type, data, metadata: metadataOf(data.registered_by, data.organization_id, data.registered_at) }],
        'no_stream',
      );
    }
    for (const { sourceId, units } of unitAreas) {
      const data = { source_id: sourceId, units, registered_by: 'feed', registered_at: UNITS_REGISTERED_AT };
      await t.eventStore.append(
        unitAreasStream(sourceId),
        [{ type: 'UnitAreasRegistered', data, metadata: metadataOf('feed', 'org-data', UNITS_REGISTERED_AT) }],
        'no_stream',
      );
    }
    await readWholeLog(t.eventStore, sources.length + unitAreas.length);
    await rebuildProjections({
      eventStore: t.eventStore,
      db: t.db,
      projections: readModelProjections.filter(({ name }) => ['index_sources', 'index_source_units'].includes(name)),
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

  describe('GET /insurance/index-sources', () => {
    it("lists every organization's sources to any role, newest first", async () => {
      for (const caller of [insurer, auditor, provider]) {
        const { status, body } = await get('/insurance/index-sources', caller);
        expect(status).toBe(200);
        expect(ids(body)).toEqual(['src-field', 'src-grid', 'src-station']);
        expect(body).toMatchObject({ total: 3, page: 1, page_size: 20 });
      }
    });

    it('shows each source with its own kind of location data, the others null', async () => {
      const { body } = await get('/insurance/index-sources', insurer);
      expect(body.items).toEqual([
        {
          source_id: 'src-field',
          organization_id: 'org-other',
          name: 'A field source',
          index: 'ndvi',
          kind: 'field',
          stations: null,
          radius_km: null,
          resolution_deg: null,
          unit: null,
          currency: null,
          cadence: 'daily',
          sampling: 'cell',
          product: null,
          model: null,
          registered_at: '2026-03-03T00:00:00.000Z',
        },
        {
          source_id: 'src-grid',
          organization_id: 'org-data',
          name: 'A grid source',
          index: 'rainfall_mm',
          kind: 'grid',
          stations: null,
          radius_km: null,
          resolution_deg: 0.05,
          unit: null,
          currency: null,
          cadence: 'daily',
          sampling: 'cell',
          product: null,
          model: null,
          registered_at: '2026-03-02T00:00:00.000Z',
        },
        {
          source_id: 'src-station',
          organization_id: 'org-data',
          name: 'A station source',
          index: 'rainfall_mm',
          kind: 'station',
          stations: stationSourceRegistered.data.stations,
          radius_km: 25,
          resolution_deg: null,
          unit: null,
          currency: null,
          cadence: 'daily',
          sampling: 'cell',
          product: null,
          model: null,
          registered_at: '2026-03-01T00:00:00.000Z',
        },
      ]);
    });

    it('filters by index, kind and owner, combined with AND', async () => {
      expect(ids((await get('/insurance/index-sources?index=rainfall_mm', insurer)).body)).toEqual([
        'src-grid',
        'src-station',
      ]);
      expect(ids((await get('/insurance/index-sources?kind=station', insurer)).body)).toEqual(['src-station']);
      expect(ids((await get('/insurance/index-sources?organization_id=org-other', insurer)).body)).toEqual([
        'src-field',
      ]);
      const none = await get('/insurance/index-sources?organization_id=org-data&kind=field', insurer);
      expect(none.body).toMatchObject({ items: [], total: 0 });
    });

    it('pages, a page past the end empty with the true total', async () => {
      const second = await get('/insurance/index-sources?page=2&page_size=2', insurer);
      expect(ids(second.body)).toEqual(['src-station']);
      expect(second.body).toMatchObject({ total: 3, page: 2, page_size: 2 });
      expect((await get('/insurance/index-sources?page=9', insurer)).body).toMatchObject({ items: [], total: 3 });
    });

    it('refuses bad filters with 400, and a caller without role or organization with 403', async () => {
      expect((await get('/insurance/index-sources?kind=satellite', insurer)).status).toBe(400);
      expect((await get('/insurance/index-sources?page_size=101', insurer)).status).toBe(400);
      expect((await get('/insurance/index-sources?colour=red', insurer)).status).toBe(400);
      expect((await get('/insurance/index-sources', { sub: 'nobody', org: 'org-a', roles: [] })).body).toMatchObject({
        status: 403,
        code: 'forbidden',
      });
      expect((await get('/insurance/index-sources', { sub: 'lost', roles: ['insurer'] })).body).toMatchObject({
        status: 403,
        code: 'organization_required',
      });
    });
  });

  describe('GET /insurance/index-sources/{source_id}', () => {
    it('shows one source to any organization', async () => {
      const { status, body } = await get('/insurance/index-sources/src-grid', auditor);
      expect(status).toBe(200);
      expect(body).toMatchObject({ source_id: 'src-grid', kind: 'grid', resolution_deg: 0.05 });
    });

    it('answers an unknown source with the not_found problem', async () => {
      const { status, body } = await get('/insurance/index-sources/no-such-source', insurer);
      expect(status).toBe(404);
      expect(body).toMatchObject({ status: 404, code: 'not_found' });
    });
  });

  describe('GET /insurance/index-sources/{source_id}/units', () => {
    const outline = { parts: 1, positions: 5, cells: 4, registered_at: UNITS_REGISTERED_AT };

    it("lists a grid source's units by unit_id, each with its box, its size and the cells it reads", async () => {
      const { status, body } = await get('/insurance/index-sources/src-grid/units', auditor);
      expect(status).toBe(200);
      expect(body).toEqual({
        source_id: 'src-grid',
        items: [
          { unit_id: 'isiolo', name: 'Isiolo', bbox: [36.7, -1.3, 36.8, -1.2], ...outline },
          { unit_id: 'marsabit-10', name: 'Marsabit Central', bbox: [36.7, -1.3, 36.8, -1.2], ...outline },
          {
            unit_id: 'marsabit-2',
            name: 'Marsabit North',
            bbox: [37.001, -1.004, 37.004, -1.001],
            parts: 2,
            positions: 8,
            cells: 1,
            registered_at: UNITS_REGISTERED_AT,
          },
        ],
        total: 3,
        page: 1,
        page_size: 20,
      });
    });

    it('pages, and gives each polygon when asked for', async () => {
      const { body } = await get('/insurance/index-sources/src-grid/units?page=2&page_size=1&polygons=true', insurer);
      expect(body).toMatchObject({ total: 3, page: 2, page_size: 1 });
      expect(body.items).toEqual([expect.objectContaining({ unit_id: 'marsabit-10', polygon: square })]);
    });

    it('counts no cells on a source without a grid, and lists none on a source without units', async () => {
      const { body } = await get('/insurance/index-sources/src-station/units', provider);
      expect(body.items).toEqual([expect.objectContaining({ unit_id: 'laikipia', cells: null })]);
      expect((await get('/insurance/index-sources/src-field/units', insurer)).body).toMatchObject({
        items: [],
        total: 0,
      });
    });

    it('answers 404 for no such source, 400 for a bad query and 403 without a role', async () => {
      expect((await get('/insurance/index-sources/no-such-source/units', insurer)).body).toMatchObject({
        status: 404,
        code: 'not_found',
      });
      expect((await get('/insurance/index-sources/src-grid/units?polygons=yes', insurer)).status).toBe(400);
      expect((await get('/insurance/index-sources/src-grid/units?page_size=101', insurer)).status).toBe(400);
      const nobody = { sub: 'nobody', org: 'org-a', roles: [] };
      expect((await get('/insurance/index-sources/src-grid/units', nobody)).status).toBe(403);
    });
  });
});
