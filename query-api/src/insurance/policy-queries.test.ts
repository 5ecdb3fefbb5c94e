import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PhaseEvaluation } from '@cropcover/contracts';
import { policyListItem, policyView, sheetDigest } from '@cropcover/domain';
import { TERM_ANCHORED_PHASES_SHEET } from '@cropcover/domain/testing';
import { policiesProjection, rebuildProjections } from '@cropcover/projector';
import {
  openProjectorTestDatabase,
  type PolicyStory,
  type ProjectorTestDatabase,
  policyStory,
  readWholeLog,
} from '@cropcover/projector/testing';
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
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRouter } from '../query-router';

// The insurance read API over real HTTP, on read models the real projector built from a real log.

const SECRET = 'policy-queries-test-secret-of-at-least-32-characters';
const TODAY = '2026-04-08T12:00:00.000Z';

interface Caller {
  readonly sub: string;
  readonly org?: string;
  readonly roles: readonly string[];
}
const insurerA: Caller = { sub: 'insurer-a', org: 'org-a', roles: ['insurer'] };
const auditorA: Caller = { sub: 'auditor-a', org: 'org-a', roles: ['auditor'] };
const insurerB: Caller = { sub: 'insurer-b', org: 'org-b', roles: ['insurer'] };
const adminB: Caller = { sub: 'admin-b', org: 'org-b', roles: ['admin'] };
const insurerC: Caller = { sub: 'insurer-c', org: 'org-c', roles: ['insurer'] };

const OWN_FIELD = 'organization-fields:org-a';

describe('insurance queries', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let consistency: ReadModelConsistency;
  let baseUrl: string;
  let claimed: PolicyStory;
  let stories: PolicyStory[];

  const get = async (path: string, caller: Caller) => {
    const token = await signDevToken(caller, SECRET);
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    t = await openProjectorTestDatabase('query_policies');
    claimed = policyStory({
      policyId: 'a-claimed',
      organizationId: 'org-a',
      perils: ['flood', 'storm'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    claimed.evaluate(
      { flood: [{ date: '2026-04-02', value: 200, revision: 1 }] },
      '2026-04-05T06:00:00.000Z',
      'eval-1',
    );
    claimed.settle(claimed.state.payouts[0]!.payoutId, '2026-04-06T09:00:00.000Z');
    claimed.evaluate(
      {
        flood: [{ date: '2026-04-02', value: 200, revision: 1 }],
        storm: [{ date: '2026-04-06', value: 30, revision: 1 }],
      },
      '2026-04-07T06:00:00.000Z',
      'eval-2',
    );
    const term = { termStart: '2026-04-05', termEnd: '2026-09-30' };
    const lapsed = policyStory({
      policyId: 'a-lapsed',
      organizationId: 'org-a',
      perils: ['vegetation_stress'],
      issuedAt: '2026-03-29T08:00:00.000Z',
      ...term,
    });
    lapsed.lapse('premium not paid', '2026-04-02T08:00:00.000Z');
    stories = [
      claimed,
      lapsed,
      policyStory({
        policyId: 'a-drought',
        organizationId: 'org-a',
        farmId: 'farm-2',
        perils: ['drought'],
        issuedAt: '2026-03-30T08:00:00.000Z',
        ...term,
      }),
      // Two policies issued at the same instant: policy_id breaks the tie.
      policyStory({
        policyId: 'a-flood-1',
        organizationId: 'org-a',
        farmId: 'farm-2',
        perils: ['flood', 'drought'],
        issuedAt: '2026-03-31T08:00:00.000Z',
        ...term,
      }),
      policyStory({
        policyId: 'a-flood-2',
        organizationId: 'org-a',
        farmId: 'farm-2',
        perils: ['flood'],
        issuedAt: '2026-03-31T08:00:00.000Z',
        ...term,
      }),
      policyStory({
        policyId: 'b-flood',
        organizationId: 'org-b',
        farmId: 'farm-2',
        perils: ['flood'],
        issuedAt: '2026-04-01T08:00:00.000Z',
        ...term,
      }),
      policyStory({
        policyId: 'c-phases',
        organizationId: 'org-c',
        perils: ['drought'],
        termStart: '2026-04-01',
        termEnd: '2026-04-30',
        issuedAt: '2026-03-28T08:00:00.000Z',
        product: {
          ref: { product_id: 'two-phases', version: 1, digest: sheetDigest(TERM_ANCHORED_PHASES_SHEET) },
          sheet: TERM_ANCHORED_PHASES_SHEET,
        },
      }),
    ];
    for (const story of stories) await t.eventStore.append(story.streamId, story.takeNew(), 'no_stream');
    await readWholeLog(
      t.eventStore,
      stories.reduce((count, story) => count + story.events.length, 0),
    );
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [policiesProjection] });
    await t.db
      .insertInto('index_readings')
      .values(
        [
          { index: 'rainfall_mm', date: '2026-03-31', value: 999 },
          { index: 'rainfall_mm', date: '2026-04-02', value: 120 },
          { index: 'rainfall_mm', date: '2026-04-03', value: 45.5 },
          { index: 'wind_speed_ms', date: '2026-04-06', value: 30 },
          // Another organization's readings of the same field: the policy never reads them.
          { index: 'rainfall_mm', date: '2026-04-04', value: 500, source_id: 'organization-fields:org-b' },
          // org-c's: 2 mm on every day of the term so far.
          ...Array.from({ length: 8 }, (_, day) => ({
            index: 'rainfall_mm',
            date: `2026-04-0${day + 1}`,
            value: 2,
            source_id: 'organization-fields:org-c',
          })),
        ].map((reading) => ({
          source_id: OWN_FIELD,
          location: 'farm-1/north',
          ...reading,
          note: null,
          revision: 1,
          recorded_at: '2026-04-07T00:00:00.000Z',
        })),
      )
      .execute();

    const clock = settableClock(TODAY);
    const config = loadConfig({ AUTH_JWT_SECRET: SECRET });
    const app = createHttpApp({
      config,
      logger: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: [],
      openApiDocument: {},
      asyncApiDocument: {},
      clock,
    });
    consistency = createReadModelConsistency({ pool: t.pool, projectionNames: ['policies'], logger: t.logger });
    app.use(
      createQueryRouter({
        db: t.db,
        consistency,
        readYourWritesTimeoutMs: 1000,
        eventStore: t.eventStore,
        clock,
      }),
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

  const ids = (body: { items: { policy_id: string }[] }) => body.items.map((item) => item.policy_id);

  describe('GET /insurance/policies', () => {
    it("lists the caller's organization's policies, newest first, policy_id breaking ties", async () => {
      const { status, body } = await get('/insurance/policies', insurerA);
      expect(status).toBe(200);
      expect(ids(body)).toEqual(['a-flood-1', 'a-flood-2', 'a-drought', 'a-lapsed', 'a-claimed']);
      expect(body).toMatchObject({ total: 5, page: 1, page_size: 20 });
      expect(body.items[4]).toEqual(policyListItem(claimed.state));
      expect(body.items[4]).toMatchObject({
        status: 'claimed',
        sum_insured: 10_000,
        next_monitoring_date: '2026-04-08',
      });
    });

    it('combines the status, farm_id and peril filters with AND', async () => {
      const list = async (query: string) => ids((await get(`/insurance/policies?${query}`, auditorA)).body);
      expect(await list('status=claimed')).toEqual(['a-claimed']);
      expect(await list('status=lapsed')).toEqual(['a-lapsed']);
      expect(await list('farm_id=farm-2')).toEqual(['a-flood-1', 'a-flood-2', 'a-drought']);
      expect(await list('peril=flood')).toEqual(['a-flood-1', 'a-flood-2', 'a-claimed']);
      expect(await list('peril=drought&farm_id=farm-2')).toEqual(['a-flood-1', 'a-drought']);
      expect(await list('peril=flood&farm_id=farm-2&status=active')).toEqual(['a-flood-1', 'a-flood-2']);
      expect(await list('peril=storm&status=active')).toEqual([]);
    });

    it('pages through the list, and past its end shows no items but the true total', async () => {
      const second = (await get('/insurance/policies?page=2&page_size=2', insurerA)).body;
      expect(second).toMatchObject({ total: 5, page: 2, page_size: 2 });
      expect(ids(second)).toEqual(['a-drought', 'a-lapsed']);
      const third = (await get('/insurance/policies?page=3&page_size=2&peril=flood', insurerA)).body;
      expect(third).toEqual({ items: [], total: 3, page: 3, page_size: 2 });
      expect((await get('/insurance/policies?page=100', insurerA)).body).toMatchObject({ items: [], total: 5 });
      expect((await get('/insurance/policies?page_size=100', insurerA)).status).toBe(200);
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page_size=ten', 'page_size'],
      ['status=pending', 'status'],
      ['peril=hail', 'peril'],
      ['sort=premium', 'sort'],
    ])('refuses %s with a 400 naming the parameter', async (query, path) => {
      const { status, body } = await get(`/insurance/policies?${query}`, insurerA);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path })] });
    });

    it('shows another organization only its own policies, admins included', async () => {
      expect(ids((await get('/insurance/policies', insurerB)).body)).toEqual(['b-flood']);
      expect((await get('/insurance/policies', adminB)).body).toMatchObject({
        total: 1,
        items: [{ policy_id: 'b-flood' }],
      });
    });

    it('needs the insurer, auditor or admin role and an organization', async () => {
      const farmer = await get('/insurance/policies', { sub: 'farmer', org: 'org-a', roles: [] });
      expect(farmer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      const provider = await get('/insurance/policies', { sub: 'feed', org: 'org-a', roles: ['data_provider'] });
      expect(provider.status).toBe(403);
      const orgless = await get('/insurance/policies', { sub: 'insurer', roles: ['insurer'] });
      expect(orgless).toMatchObject({ status: 403, body: { code: 'organization_required' } });
    });
  });

  describe('GET /insurance/policies/{policy_id}', () => {
    it("shows each peril's trigger as it stands today, from the field's readings so far", async () => {
      const { status, body } = await get('/insurance/policies/a-claimed', auditorA);
      expect(status).toBe(200);
      expect(body).toEqual({
        ...policyView(claimed.state),
        triggers: [
          {
            peril: 'flood',
            trigger_index: 'max_5day_rainfall_mm',
            // 120 + 45.5 from the readings table now, not the 200 the last evaluation saw; the reading
            // before term start is outside the window, and org-b's 500 of the same field is not the
            // policy's data.
            current_index_reading: 165.5,
            trigger_threshold: 150,
            comparison: 'gte',
            data_available: true,
            // A maximum runs on the days present and says how many there were.
            coverage: { days_with_reading: 2, days_in_window: 8 },
            // The data frozen at issue: the insurer's own readings of the field.
            data_source: { source_id: OWN_FIELD, kind: 'field', index: 'rainfall_mm', location: 'farm-1/north' },
            // Posted one by one through the readings API, not ingested from a file.
            files: [],
          },
          {
            peril: 'storm',
            trigger_index: 'max_wind_speed_ms',
            current_index_reading: 30,
            trigger_threshold: 25,
            comparison: 'gte',
            data_available: true,
            coverage: { days_with_reading: 1, days_in_window: 8 },
            data_source: { source_id: OWN_FIELD, kind: 'field', index: 'wind_speed_ms', location: 'farm-1/north' },
            files: [],
          },
        ],
      });
      expect(body).toMatchObject({ status: 'claimed', next_monitoring_date: '2026-04-08', farm_name: 'Shamba' });
    });

    it('reports no data where the window has no reading', async () => {
      const { body } = await get('/insurance/policies/a-drought', insurerA);
      expect(body.triggers).toEqual([
        expect.objectContaining({
          peril: 'drought',
          current_index_reading: null,
          data_available: false,
          skipped_reason: 'no_data',
        }),
      ]);
    });

    it("is 404 for another organization's policy and for an unknown one; an admin sees any", async () => {
      expect(await get('/insurance/policies/a-claimed', insurerB)).toMatchObject({
        status: 404,
        body: { code: 'not_found' },
      });
      expect((await get('/insurance/policies/nope', insurerA)).status).toBe(404);
      expect((await get('/insurance/policies/a-claimed', adminB)).status).toBe(200);
    });
  });

  describe('GET /insurance/policies/{policy_id}/evaluations', () => {
    it('lists each evaluated peril, newest first, with the payout it got in that evaluation', async () => {
      const { status, body } = await get('/insurance/policies/a-claimed/evaluations', insurerA);
      expect(status).toBe(200);
      expect(body).toMatchObject({ policy_id: 'a-claimed', total: 3, page: 1, page_size: 20 });
      expect(body.items.map((item: any) => [item.evaluation_id, item.peril])).toEqual([
        ['eval-2', 'flood'],
        ['eval-2', 'storm'],
        ['eval-1', 'flood'],
      ]);
      expect(body.items[0]).not.toHaveProperty('payout');
      expect(body.items[1].payout).toEqual({
        payout_id: expect.any(String),
        amount: 3333.33,
        currency: 'KES',
        status: 'approved',
      });
      expect(body.items[2]).toEqual({
        evaluation_id: 'eval-1',
        peril: 'flood',
        trigger_index: 'max_5day_rainfall_mm',
        observed_value: 200,
        threshold: 150,
        breached: true,
        severity: 0.333333,
        as_of: '2026-04-05',
        window_start: '2026-04-01',
        window_end: '2026-04-05',
        evaluated_at: '2026-04-05T06:00:00.000Z',
        // A reading on one day of the window's five: a maximum is evaluated on the days present.
        coverage: { days_with_reading: 1, days_in_window: 5 },
        payout: {
          payout_id: expect.any(String),
          amount: 3333.33,
          currency: 'KES',
          status: 'settled',
          settled_at: '2026-04-06T09:00:00.000Z',
        },
      });
    });

    it('shows the coverage each evaluation was judged on, and none for one recorded before coverage was', async () => {
      const { body } = await get('/insurance/policies/a-claimed/evaluations', insurerA);
      expect(body.items.map((item: any) => item.coverage)).toEqual([
        { days_with_reading: 1, days_in_window: 7 },
        { days_with_reading: 1, days_in_window: 7 },
        { days_with_reading: 1, days_in_window: 5 },
      ]);
      // The row the projector writes for a TriggerEvaluated without coverage.
      await t.db
        .insertInto('policy_evaluations')
        .values({
          evaluation_id: 'eval-old',
          peril: 'flood',
          policy_id: 'b-flood',
          organization_id: 'org-b',
          trigger_index: 'max_5day_rainfall_mm',
          observed_value: 90,
          threshold: 150,
          breached: false,
          severity: 0,
          as_of: '2026-04-07',
          window_start: '2026-04-05',
          window_end: '2026-04-07',
          evaluated_at: '2026-04-07T06:00:00.000Z',
          days_with_reading: null,
          days_in_window: null,
          payout_id: null,
        })
        .execute();
      const old = (await get('/insurance/policies/b-flood/evaluations', insurerB)).body;
      expect(old.items).toHaveLength(1);
      expect(old.items[0]).toMatchObject({ evaluation_id: 'eval-old', observed_value: 90 });
      expect(old.items[0]).not.toHaveProperty('coverage');
    });

    it('shows each phase of a cover of several phases, and none on a single phase', async () => {
      const phases: PhaseEvaluation[] = [
        {
          phase: 'establishment',
          window_start: '2026-04-01',
          window_end: '2026-04-30',
          status: 'closed',
          observed_value: 30,
          trigger: 100,
          exit: 40,
          breached: true,
          amount_due: 60,
          coverage: { days_with_reading: 30, days_in_window: 30 },
        },
        {
          phase: 'vegetative',
          window_start: '2026-05-01',
          window_end: '2026-06-10',
          status: 'not_open',
          trigger: 150,
          exit: 60,
          breached: false,
          amount_due: 0,
        },
      ];
      await t.db
        .insertInto('policy_evaluations')
        .values({
          evaluation_id: 'eval-phases',
          peril: 'drought',
          policy_id: 'b-flood',
          organization_id: 'org-b',
          trigger_index: 'phase_rainfall_dekad_capped_mm',
          observed_value: 30,
          threshold: 100,
          breached: true,
          severity: 0.25,
          as_of: '2026-05-01',
          window_start: '2026-04-01',
          window_end: '2026-04-30',
          evaluated_at: '2026-05-01T06:00:00.000Z',
          days_with_reading: 30,
          days_in_window: 30,
          // As JSON text: node-postgres would send an array as a PostgreSQL array literal.
          phases: sql`${JSON.stringify(phases)}::jsonb`,
          payout_id: null,
        })
        .execute();
      const { items } = (await get('/insurance/policies/b-flood/evaluations', insurerB)).body;
      expect(items.find((item: any) => item.evaluation_id === 'eval-phases').phases).toEqual(phases);
      expect(items.find((item: any) => item.evaluation_id === 'eval-old')).not.toHaveProperty('phases');
    });

    it('pages the history and refuses out-of-range pages', async () => {
      const last = (await get('/insurance/policies/a-claimed/evaluations?page=3&page_size=1', insurerA)).body;
      expect(last.items.map((item: any) => item.evaluation_id)).toEqual(['eval-1']);
      const beyond = (await get('/insurance/policies/a-claimed/evaluations?page=4&page_size=1', insurerA)).body;
      expect(beyond).toEqual({ policy_id: 'a-claimed', items: [], total: 3, page: 4, page_size: 1 });
      const zero = await get('/insurance/policies/a-claimed/evaluations?page=0', insurerA);
      expect(zero).toMatchObject({ status: 400, body: { errors: [{ path: 'page' }] } });
      expect((await get('/insurance/policies/a-claimed/evaluations?page_size=101', insurerA)).status).toBe(400);
    });

    it('is empty for a policy never evaluated and 404 for another organization', async () => {
      expect((await get('/insurance/policies/a-drought/evaluations', insurerA)).body).toMatchObject({
        items: [],
        total: 0,
      });
      expect((await get('/insurance/policies/a-claimed/evaluations', insurerB)).status).toBe(404);
    });
  });

  describe('GET /insurance/policies/{policy_id}/trigger-courses', () => {
    it("gives each cover's aggregate day by day from its frozen data, with its trigger and exit", async () => {
      const { status, body } = await get('/insurance/policies/a-claimed/trigger-courses', auditorA);
      expect(status).toBe(200);
      expect(body).toMatchObject({ policy_id: 'a-claimed', as_of: '2026-04-08' });
      const [flood, storm] = body.covers;
      expect(flood).toMatchObject({
        peril: 'flood',
        trigger_index: 'max_5day_rainfall_mm',
        reading: 'rainfall_mm',
        comparison: 'gte',
        trigger: 150,
        exit: 300,
        window_start: '2026-04-01',
        window_end: '2026-04-30',
        data_source: { source_id: OWN_FIELD, kind: 'field', index: 'rainfall_mm', location: 'farm-1/north' },
      });
      // The reading before term start and org-b's 500 of the same field never count; today's figure is
      // the policy's current_index_reading.
      expect(flood.days).toEqual([
        { date: '2026-04-01', value: null, observed_value: null },
        { date: '2026-04-02', value: 120, observed_value: 120 },
        { date: '2026-04-03', value: 45.5, observed_value: 165.5 },
        { date: '2026-04-04', value: null, observed_value: 165.5 },
        { date: '2026-04-05', value: null, observed_value: 165.5 },
        { date: '2026-04-06', value: null, observed_value: 165.5 },
        { date: '2026-04-07', value: null, observed_value: 165.5 },
        { date: '2026-04-08', value: null, observed_value: 165.5 },
      ]);
      expect(storm).toMatchObject({ peril: 'storm', trigger: 25, exit: 40 });
      expect(storm.days.at(-1)).toEqual({ date: '2026-04-08', value: null, observed_value: 30 });
    });

    it('starts at term start and shows null on the days with no reading to evaluate', async () => {
      const { body } = await get('/insurance/policies/a-drought/trigger-courses', insurerA);
      expect(body.covers).toEqual([
        expect.objectContaining({
          peril: 'drought',
          trigger: 358,
          exit: 143.2,
          days: ['2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08'].map((date) => ({
            date,
            value: null,
            observed_value: null,
          })),
        }),
      ]);
    });

    it('gives each phase of a cover of several phases its own window, trigger, exit and index day by day', async () => {
      const { status, body } = await get('/insurance/policies/c-phases/trigger-courses', insurerC);
      expect(status).toBe(200);
      const [drought] = body.covers;
      expect(drought).toMatchObject({ peril: 'drought', trigger_index: 'phase_rainfall_mm', comparison: 'lte' });
      expect(drought.phases).toEqual([
        {
          phase: 'establishment',
          window_start: '2026-04-01',
          window_end: '2026-04-05',
          comparison: 'lte',
          trigger: 20,
          exit: 5,
          days: [2, 4, 6, 8, 10].map((value, day) => ({ date: `2026-04-0${day + 1}`, observed_value: value })),
        },
        {
          phase: 'vegetative',
          window_start: '2026-04-06',
          window_end: '2026-04-30',
          comparison: 'lte',
          trigger: 60,
          exit: 20,
          days: [2, 4, 6].map((value, day) => ({ date: `2026-04-0${day + 6}`, observed_value: value })),
        },
      ]);
      expect(drought.days.map((day: { value: number }) => day.value)).toEqual(Array(8).fill(2));
    });

    it("is for the policy's organization only: another organization gets 404, a caller without a role 403", async () => {
      expect((await get('/insurance/policies/c-phases/trigger-courses', insurerA)).status).toBe(404);
      expect((await get('/insurance/policies/a-claimed/trigger-courses', insurerB)).status).toBe(404);
      expect((await get('/insurance/policies/a-claimed/trigger-courses', { ...auditorA, roles: [] })).status).toBe(403);
      expect((await get('/insurance/policies/unknown/trigger-courses', auditorA)).status).toBe(404);
    });
  });

  describe('GET /insurance/policies/{policy_id}/events', () => {
    it("replays the policy's stream from the log, in order, with who did what and when", async () => {
      const { status, body } = await get('/insurance/policies/a-claimed/events', auditorA);
      expect(status).toBe(200);
      expect(body).toMatchObject({ policy_id: 'a-claimed', total: claimed.events.length, page: 1, page_size: 20 });
      expect(body.items.map((item: any) => item.type)).toEqual(claimed.events.map((event) => event.type));
      expect(body.items[0]).toEqual({
        revision: 0,
        type: 'PolicyIssued',
        data: claimed.events[0]!.data,
        metadata: claimed.events[0]!.metadata,
        occurred_at: '2026-03-28T08:00:00.000Z',
      });
      expect(body.items[0].metadata.actor).toBe('underwriter');
    });

    it('pages the stream', async () => {
      const { body } = await get('/insurance/policies/a-claimed/events?page=2&page_size=2', auditorA);
      expect(body.items.map((item: any) => item.revision)).toEqual([2, 3]);
      expect((await get('/insurance/policies/a-claimed/events?page=99', auditorA)).body).toMatchObject({
        items: [],
        total: claimed.events.length,
      });
      expect((await get('/insurance/policies/a-claimed/events?page_size=0', auditorA)).status).toBe(400);
    });

    it("is for the policy's organization's auditors and insurers, and admins", async () => {
      expect((await get('/insurance/policies/a-claimed/events', insurerA)).status).toBe(200);
      expect((await get('/insurance/policies/a-claimed/events', adminB)).status).toBe(200);
      expect((await get('/insurance/policies/a-claimed/events', insurerB)).status).toBe(404);
      expect((await get('/insurance/policies/a-claimed/events', { ...auditorA, org: 'org-b' })).status).toBe(404);
      expect((await get('/insurance/policies/a-claimed/events', { ...auditorA, roles: [] })).status).toBe(403);
      expect((await get('/insurance/policies/unknown/events', auditorA)).status).toBe(404);
    });
  });
});
