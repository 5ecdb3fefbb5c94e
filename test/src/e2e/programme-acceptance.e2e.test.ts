import { randomUUID } from 'node:crypto';
import { defaultProgrammeId } from '@cropcover/domain';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, apiClient, type Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { type RunningService, startService } from '../support/service-process';

// The insurer's book over HTTP (SPEC §7, issue 19): the research note's acceptance tests 1–5 and 8–10
// (portfolio-accumulation.md §5) with their exact numbers, through the service `npm start` runs. Tests 6
// and 7 are the as-if backtest's. Amounts are in RWF, a currency without minor units, so the note's minor
// units are the API's major units. Releases and cessions are recorded by the programme book keeper moments
// after the policy event: every wait below polls a read endpoint until the figure shows, within a bound.

const WAIT = { timeout: 20_000, interval: 100 } as const;
const CURRENCY = 'RWF';

let database: TestDatabase;
let service: RunningService;
let api: ApiClient;
let client: pg.Client;
let sequence = 0;

const insurer: Caller = { sub: 'chief-underwriter', org: 'org-book', roles: ['insurer'] };
const dataProvider: Caller = { sub: 'weather-feed', org: insurer.org, roles: ['data_provider'] };

type Field = { farm_id: string; field_id: string };

const farmWithField = async (organizationId = insurer.org!): Promise<Field> => {
  const owner: Caller = { sub: `farmer-${++sequence}`, givenName: 'Jean', familyName: 'Habimana' };
  const farm = await api.post('/farms/create', owner, { name: 'Umurima' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, organizationId);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${sequence}`,
    name: 'Hillside plot',
    area_ha: 1.5,
    location: { lat: -1.95 + sequence * 0.01, lon: 30.06 },
    crop_type: 'maize',
  });
  expect(field.status).toBe(201);
  return { farm_id: farm.body.farm_id, field_id: field.body.field_id };
};

const createProgramme = async (body: Record<string, unknown>): Promise<string> => {
  const created = await api.post('/insurance/programmes', insurer, {
    name: `book ${++sequence}`,
    currency: CURRENCY,
    ...body,
  });
  expect(created.status).toBe(201);
  return created.body.programme_id;
};

const bindTreaty = async (programmeId: string, treaty: Record<string, unknown>): Promise<string> => {
  const bound = await api.post(`/insurance/programmes/${programmeId}/treaties`, insurer, treaty);
  expect(bound.status).toBe(201);
  return bound.body.treaty_id;
};

const TERM_START = () => addDays(today(), -5);

/** The issue request of a flood cover (150 mm in 5 days pays from 0 to all at 300 mm) that started 5 days
 *  ago; `days` long, 90 unless said. */
const floodIssue = (field: Field, programmeId: string, sumInsured: number, days = 90) => ({
  farm_id: field.farm_id,
  field_id: field.field_id,
  perils: ['flood'],
  sum_insured: sumInsured,
  currency: CURRENCY,
  term_start: TERM_START(),
  term_end: addDays(TERM_START(), days - 1),
  programme_id: programmeId,
});

const issue = (body: unknown) => api.post('/insurance/policies', insurer, body);

const issued = async (body: unknown): Promise<string> => {
  const response = await issue(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.policy_id;
};

/** One day's rain on the term's second day; posting it again corrects it (a new revision). */
const rain = (field: Field, mm: number) =>
  recordReadings(api, dataProvider, field, 'rainfall_mm', addDays(TERM_START(), 1), [mm]);

const evaluate = async (policyId: string) => {
  const response = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

const exposure = async (programmeId: string, groupBy = 'zone') => {
  const response = await api.get(`/insurance/programmes/${programmeId}/exposure?group_by=${groupBy}`, insurer);
  expect(response.status).toBe(200);
  return response.body;
};

const cessions = async (programmeId: string, treatyId: string): Promise<any[]> => {
  const response = await api.get(
    `/insurance/programmes/${programmeId}/cessions?treaty_id=${treatyId}&page_size=100`,
    insurer,
  );
  expect(response.status).toBe(200);
  return response.body.items;
};

/** Every event but those the book keeper writes on its own: what a request appended. */
const eventCount = async (): Promise<number> =>
  Number(
    (await client.query<{ count: string }>(`select count(*) from events where stream_id not like 'reinsurance-%'`))
      .rows[0]!.count,
  );

beforeAll(async () => {
  database = await createTestDatabase('e2e_programme_acceptance');
  // Evaluations come from the tests alone: the monitor's rounds would add their own.
  service = await startService({ DATABASE_URL: database.url, MONITOR_ENABLED: 'false' });
  api = apiClient(service.baseUrl);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await service?.stop();
  await database?.drop();
});

describe('capacity at binding (acceptance tests 1, 2, 5)', () => {
  it('1: refuses 300,000 on a zone of 5,000,000 holding 4,800,000 with the numbers, writing nothing; takes 200,000 to exactly full', async () => {
    const programmeId = await createProgramme({ capacity: { zone_default: 5_000_000 } });
    const field = await farmWithField();
    const first = await issued(floodIssue(field, programmeId, 4_800_000));
    const zone = (await api.get(`/insurance/policies/${first}`, insurer)).body.triggers[0].data_source;

    const before = await eventCount();
    const refused = await issue(floodIssue(field, programmeId, 300_000));
    expectProblem(refused, 422, 'capacity_exceeded');
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        limit: 'zone',
        source_id: zone.source_id,
        location: zone.location,
        capacity: 5_000_000,
        committed: 4_800_000,
        requested: 300_000,
        available: 200_000,
      }),
    ]);
    expect(await eventCount()).toBe(before);

    await issued(floodIssue(field, programmeId, 200_000));
    await vi.waitFor(async () => {
      expect((await exposure(programmeId)).items).toEqual([
        expect.objectContaining({
          source_id: zone.source_id,
          location: zone.location,
          policies: 2,
          sum_insured: 5_000_000,
          capacity: 5_000_000,
          utilisation: 1,
        }),
      ]);
    }, WAIT);
    // Full: the smallest policy that prices (one of 1 RWF would be premium_too_small) is refused.
    const full = await issue(floodIssue(field, programmeId, 1_000));
    expectProblem(full, 422, 'capacity_exceeded');
    expect(full.body.errors).toEqual([
      expect.objectContaining({ capacity: 5_000_000, committed: 5_000_000, requested: 1_000, available: 0 }),
    ]);
  });

  it('2: of 50 concurrent issues of 100,000 against 1,000,000 available, exactly 10 are issued and 40 refused', async () => {
    const programmeId = await createProgramme({ capacity: { zone_default: 1_000_000 } });
    const field = await farmWithField();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => issue(floodIssue(field, programmeId, 100_000))),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 422)).toHaveLength(40);
    for (const response of responses.filter((each) => each.status === 422)) {
      expectProblem(response, 422, 'capacity_exceeded');
      expect(response.body.errors).toEqual([
        expect.objectContaining({ capacity: 1_000_000, committed: 1_000_000, requested: 100_000, available: 0 }),
      ]);
    }
    await vi.waitFor(async () => {
      expect((await exposure(programmeId)).totals).toMatchObject({ policies: 10, sum_insured: 1_000_000 });
    }, WAIT);
  });

  it('5: refuses lowering a zone to 4,000,000 under 4,800,000 committed, and the aggregate too, changing nothing', async () => {
    const programmeId = await createProgramme({ capacity: { zone_default: 5_000_000 }, aggregate_limit: 9_000_000 });
    const field = await farmWithField();
    await issued(floodIssue(field, programmeId, 4_800_000));
    const before = (await api.get(`/insurance/programmes/${programmeId}`, insurer)).body;
    const events = await eventCount();

    const lowered = await api.request('PATCH', `/insurance/programmes/${programmeId}`, {
      caller: insurer,
      body: { capacity: { zone_default: 4_000_000 }, aggregate_limit: 4_000_000 },
    });
    expectProblem(lowered, 422, 'capacity_below_committed');
    expect(lowered.body.errors).toEqual([
      expect.objectContaining({ limit: 'zone', capacity: 4_000_000, committed: 4_800_000 }),
      expect.objectContaining({ limit: 'programme_aggregate', capacity: 4_000_000, committed: 4_800_000 }),
    ]);
    expect(await eventCount()).toBe(events);
    expect((await api.get(`/insurance/programmes/${programmeId}`, insurer)).body).toEqual(before);

    // To exactly what is committed is allowed.
    const exact = await api.request('PATCH', `/insurance/programmes/${programmeId}`, {
      caller: insurer,
      body: { capacity: { zone_default: 4_800_000 } },
    });
    expect(exact.status).toBe(200);
    expect(exact.body.capacity.zone_default).toBe(4_800_000);
  });
});

describe('the default programme of an organization and currency', () => {
  it('takes limits before its first policy, and holds the issues naming no programme to them', async () => {
    const freshInsurer: Caller = { sub: 'new-underwriter', org: 'org-fresh', roles: ['insurer'] };
    const programmeId = defaultProgrammeId(freshInsurer.org!, CURRENCY);
    const patched = await api.request('PATCH', `/insurance/programmes/${programmeId}`, {
      caller: freshInsurer,
      body: { capacity: { zone_default: 200_000 } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      programme_id: programmeId,
      organization_id: 'org-fresh',
      name: 'default',
      is_default: true,
      currency: CURRENCY,
      aggregate_limit: null,
      capacity: { zone_default: 200_000 },
    });
    // Another organization is told it does not exist.
    const other = await api.request('PATCH', `/insurance/programmes/${programmeId}`, {
      caller: insurer,
      body: { capacity: { zone_default: 1 } },
    });
    expectProblem(other, 404, 'programme_not_found');

    const field = await farmWithField(freshInsurer.org!);
    const { programme_id: _, ...noProgramme } = floodIssue(field, programmeId, 300_000);
    const refused = await api.post('/insurance/policies', freshInsurer, noProgramme);
    expectProblem(refused, 422, 'capacity_exceeded');
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ capacity: 200_000, committed: 0, requested: 300_000, available: 200_000 }),
    ]);
    const fits = await api.post('/insurance/policies', freshInsurer, { ...noProgramme, sum_insured: 200_000 });
    expect(fits.status).toBe(201);
  });

  // Issue 32: it exists before anything is written to it, so its book is empty, not missing.
  it('shows its exposure before anything was written to it: an empty book', async () => {
    const unused: Caller = { sub: 'unused-underwriter', org: 'org-unused', roles: ['insurer'] };
    const programmeId = defaultProgrammeId(unused.org!, CURRENCY);
    for (const group_by of ['zone', 'peril', 'source']) {
      const exposure = await api.get(`/insurance/programmes/${programmeId}/exposure?group_by=${group_by}`, unused);
      expect(exposure.status, JSON.stringify(exposure.body)).toBe(200);
      expect(exposure.body).toEqual({
        programme_id: programmeId,
        currency: CURRENCY,
        group_by,
        totals: { policies: 0, sum_insured: 0, premium: 0, aggregate_limit: null, utilisation: null },
        items: [],
        total: 0,
        page: 1,
        page_size: 20,
      });
    }
    // Reading it wrote nothing, and it is still no one else's.
    const written = await client.query('select 1 from programmes where programme_id = $1', [programmeId]);
    expect(written.rowCount).toBe(0);
    expectProblem(await api.get(`/insurance/programmes/${programmeId}/exposure`, insurer), 404, 'programme_not_found');
    expectProblem(await api.get(`/insurance/programmes/${randomUUID()}/exposure`, unused), 404, 'programme_not_found');
  });
});

describe('what a policy commits (acceptance tests 3, 4)', () => {
  it('3: 100,000 with drought on a CHIRPS cell and storm on a station commits 100,000 to each zone and 100,000 in aggregate', async () => {
    const grid = await api.post('/insurance/index-sources', dataProvider, {
      kind: 'grid',
      name: 'CHIRPS v2 0.05°',
      index: 'rainfall_mm',
      resolution_deg: 0.05,
    });
    expect(grid.status).toBe(201);
    const field = await farmWithField();
    const station = await api.post('/insurance/index-sources', dataProvider, {
      kind: 'station',
      name: 'Meteo Rwanda synoptic',
      index: 'wind_speed_ms',
      stations: [{ station_id: 'RW-KGL', lat: -1.96, lon: 30.14 }],
      radius_km: 100,
    });
    expect(station.status).toBe(201);
    const programmeId = await createProgramme({ aggregate_limit: 1_000_000 });
    await issued({
      ...floodIssue(field, programmeId, 100_000),
      perils: ['drought', 'storm'],
      data_sources: { drought: grid.body.source_id, storm: station.body.source_id },
    });

    await vi.waitFor(async () => {
      const zones = await exposure(programmeId);
      expect(zones.totals).toMatchObject({
        policies: 1,
        sum_insured: 100_000,
        aggregate_limit: 1_000_000,
        utilisation: 0.1,
      });
      expect(zones.items).toHaveLength(2);
      expect(zones.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ source_id: grid.body.source_id, policies: 1, sum_insured: 100_000 }),
          expect.objectContaining({ source_id: station.body.source_id, location: 'RW-KGL', sum_insured: 100_000 }),
        ]),
      );
    }, WAIT);
    const perils = await exposure(programmeId, 'peril');
    expect(perils.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ peril: 'drought', sum_insured: 100_000 }),
        expect.objectContaining({ peril: 'storm', sum_insured: 100_000 }),
      ]),
    );
  });

  it('4: a lapse releases S; a payout of 60,000 releases nothing; PolicyClosed releases S', async () => {
    const programmeId = await createProgramme({ capacity: { zone_default: 10_000_000 } });
    // A treaty, so the book keeper's recording of the payout shows in the ledger: the signal it was seen.
    const treatyId = await bindTreaty(programmeId, { type: 'quota_share', cession_rate: 0.5 });
    const committed = async () => (await exposure(programmeId)).totals.sum_insured;
    const field = await farmWithField();
    const kept = await issued(floodIssue(field, programmeId, 100_000));
    const lapsing = await issued(floodIssue(await farmWithField(), programmeId, 100_000));
    await vi.waitFor(async () => expect(await committed()).toBe(200_000), WAIT);

    const lapsed = await api.post(`/insurance/policies/${lapsing}/lapse`, insurer, { reason: 'premium not paid' });
    expect(lapsed.status).toBe(200);
    await vi.waitFor(async () => expect(await committed()).toBe(100_000), WAIT);

    await rain(field, 240);
    expect(await evaluate(kept)).toMatchObject({ total_payout: 60_000 });
    await vi.waitFor(async () => {
      expect((await cessions(programmeId, treatyId)).filter((entry) => entry.kind === 'claim')).toEqual([
        expect.objectContaining({ policy_id: kept, gross: 60_000, ceded: 30_000 }),
      ]);
    }, WAIT);
    expect(await committed()).toBe(100_000);

    // A policy of this programme issued over a year ago, as the log would hold it: its PolicyIssued and its
    // reservation, every date 400 days back. Evaluating it now finds it past its term and closes it.
    const pastId = await seedPastPolicy(
      programmeId,
      await issued(floodIssue(await farmWithField(), programmeId, 100_000)),
    );
    await vi.waitFor(async () => expect(await committed()).toBe(300_000), WAIT);
    expectProblem(await api.post(`/insurance/policies/${pastId}/evaluate`, insurer, {}), 422, 'policy_closed');
    await vi.waitFor(async () => expect(await committed()).toBe(200_000), WAIT);
  });
});

const SHIFT_DAYS = -400;

const shiftDates = (value: unknown, from: string, to: string): unknown =>
  JSON.parse(
    JSON.stringify(value)
      .replaceAll(from, to)
      .replace(/\d{4}-\d{2}-\d{2}/g, (date) => addDays(date, SHIFT_DAYS)),
  );

/** A copy of `policyId`'s PolicyIssued and of its ExposureReserved as a new policy whose every date is 400
 *  days earlier. */
const seedPastPolicy = async (programmeId: string, policyId: string): Promise<string> => {
  const pastId = randomUUID();
  const copy = async (from: string, to: string, where: string, revision: string) => {
    const { rows } = await client.query<{ event_type: string; data: unknown; metadata: Record<string, unknown> }>(
      `select event_type, data, metadata from events_json where stream_id = $1 and ${where} order by stream_revision limit 1`,
      [from],
    );
    const eventId = randomUUID();
    await client.query(
      `insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
       values ($1, (${revision}), $2, $3, $4, $5)`,
      [
        to,
        eventId,
        rows[0]!.event_type,
        shiftDates(rows[0]!.data, policyId, pastId),
        { ...(shiftDates(rows[0]!.metadata, policyId, pastId) as object), event_id: eventId },
      ],
    );
  };
  await copy(`policy-${policyId}`, `policy-${pastId}`, `event_type = 'PolicyIssued'`, '0');
  await copy(
    `programme-${programmeId}`,
    `programme-${programmeId}`,
    `data->>'policy_id' = '${policyId}' and event_type = 'ExposureReserved'`,
    `select max(stream_revision) + 1 from events where stream_id = 'programme-${programmeId}'`,
  );
  return pastId;
};

describe('the cession ledger (acceptance tests 8, 9, 10)', () => {
  it('8: payouts 333, 333, 334 on a 75% quota share cede 250, 250, 250; replaying the log records nothing more', async () => {
    const programmeId = await createProgramme({});
    const treatyId = await bindTreaty(programmeId, { type: 'quota_share', cession_rate: 0.75 });
    const field = await farmWithField();
    const policies = [
      await issued(floodIssue(field, programmeId, 333)),
      await issued(floodIssue(field, programmeId, 333)),
      await issued(floodIssue(field, programmeId, 334)),
    ];
    await rain(field, 300);
    for (const policyId of policies) await evaluate(policyId);
    const claims = async () => (await cessions(programmeId, treatyId)).filter((entry) => entry.kind === 'claim');
    await vi.waitFor(async () => expect(await claims()).toHaveLength(3), WAIT);
    const recorded = await claims();
    expect(recorded.map((entry) => [entry.policy_id, entry.gross, entry.ceded, entry.cumulative_ceded])).toEqual([
      [policies[0], 333, 250, 250],
      [policies[1], 333, 250, 500],
      [policies[2], 334, 250, 750],
    ]);

    // The book keeper reads the whole log again from its start: every PayoutApproved once more.
    const ledger = await cessions(programmeId, treatyId);
    await service.stop();
    await client.query(`delete from projection_checkpoints where name = 'programme-book-keeper'`);
    service = await startService({ DATABASE_URL: database.url, MONITOR_ENABLED: 'false' });
    api = apiClient(service.baseUrl);
    await vi.waitFor(async () => {
      const { rows } = await client.query<{ caught_up: boolean }>(
        `select (select commit_position from projection_checkpoints where name = 'programme-book-keeper')
                >= (select max(global_position) from events where stream_id not like 'reinsurance-%') as caught_up`,
      );
      expect(rows[0]?.caught_up).toBe(true);
    }, WAIT);
    expect(await cessions(programmeId, treatyId)).toEqual(ledger);
  }, 240_000);

  it('9: quota share 75% then stop-loss 40% xs 110% of net premium on GP 10,000,000 and claims 15,000,000', async () => {
    const programmeId = await createProgramme({});
    const quotaShare = await bindTreaty(programmeId, { type: 'quota_share', cession_rate: 0.75 });
    const stopLoss = await bindTreaty(programmeId, {
      type: 'stop_loss',
      attachment: { ratio: 1.1 },
      limit: { ratio: 0.4 },
    });
    const field = await farmWithField();
    // 365 days of flood cover at the base rate 0.03: 333,333,333 × 0.03 = 9,999,999.99 → 10,000,000.
    const response = await issue(floodIssue(field, programmeId, 333_333_333, 365));
    expect(response.status).toBe(201);
    expect(response.body.premium).toBe(10_000_000);
    // 156.75 mm: severity 6.75 / 150 = 0.045 of 333,333,333 = 14,999,999.985 → 15,000,000.
    await rain(field, 156.75);
    expect(await evaluate(response.body.policy_id)).toMatchObject({ total_payout: 15_000_000 });

    await vi.waitFor(async () => {
      const results = await api.get(`/insurance/programmes/${programmeId}/results`, insurer);
      expect(results.status).toBe(200);
      expect(results.body).toMatchObject({
        gross_premium: 10_000_000,
        gross_claims: 15_000_000,
        treaties: [
          { treaty_id: quotaShare, type: 'quota_share', ceded_premium: 7_500_000, recoveries: 11_250_000 },
          { treaty_id: stopLoss, type: 'stop_loss', ceded_premium: 0, recoveries: 1_000_000 },
        ],
        net_premium: 2_500_000,
        net_claims: 2_750_000,
      });
    }, WAIT);
    expect((await cessions(programmeId, stopLoss)).at(-1)).toMatchObject({
      kind: 'recovery',
      cumulative_gross: 3_750_000,
      cumulative_ceded: 1_000_000,
    });
  });

  it('10: cat XL 1,500,000 xs 500,000, aggregate 2,000,000: 700,000, 1,300,000, 0; a revision of event 2 hands 300,000 to event 3, and back when it is due again', async () => {
    const programmeId = await createProgramme({});
    const treatyId = await bindTreaty(programmeId, {
      type: 'cat_xl',
      retention: 500_000,
      limit: 1_500_000,
      aggregate_limit: 2_000_000,
    });
    // Three zones (each field its own), so three events, in the order paid.
    const events: { field: Field; policyId: string }[] = [];
    for (const sumInsured of [1_200_000, 2_500_000, 800_000]) {
      const field = await farmWithField();
      events.push({ field, policyId: await issued(floodIssue(field, programmeId, sumInsured)) });
    }
    const recoveries = async (): Promise<number[]> => {
      const byEvent = new Map<string, number>();
      const order: string[] = [];
      for (const entry of await cessions(programmeId, treatyId)) {
        if (entry.kind !== 'recovery') continue;
        if (!byEvent.has(entry.cat_event)) order.push(entry.cat_event);
        byEvent.set(entry.cat_event, entry.cumulative_ceded);
      }
      return order.map((event) => byEvent.get(event)!);
    };
    for (const [at, { field, policyId }] of events.entries()) {
      await rain(field, 300);
      await evaluate(policyId);
      // Each event is recorded before the next starts: events take the aggregate in the order they start.
      await vi.waitFor(async () => expect((await recoveries()).length).toBe(Math.min(at + 1, 2)), WAIT);
    }
    await vi.waitFor(async () => expect(await recoveries()).toEqual([700_000, 1_300_000]), WAIT);
    const before = (await cessions(programmeId, treatyId)).length;

    // 240 mm: event 2 is now due 1,500,000 of the 2,500,000 paid.
    await rain(events[1]!.field, 240);
    await evaluate(events[1]!.policyId);
    await vi.waitFor(async () => expect(await recoveries()).toEqual([700_000, 1_000_000, 300_000]), WAIT);
    const revised = (await cessions(programmeId, treatyId)).slice(before);
    expect(revised.map((entry) => [entry.cat_event, entry.ceded])).toEqual([
      [revised[0]!.cat_event, -300_000],
      [revised[1]!.cat_event, 300_000],
    ]);

    // Corrected back to 300 mm: due again all it was paid; event 2 takes its 300,000 back from event 3.
    await rain(events[1]!.field, 300);
    await evaluate(events[1]!.policyId);
    await vi.waitFor(async () => expect(await recoveries()).toEqual([700_000, 1_300_000, 0]), WAIT);
  });
});
