import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { repositoryRoot, TEST_JWT_SECRET } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';

// SPEC §6 erasure (issue 25): a farmer's personal data is sealed with their key before it reaches the
// log, and erasure destroys the key. Afterwards a marker in their name is nowhere in clear — the events
// table, any table of the read store, a rebuild, the service's logs — while their policy still evaluates
// and pays and the audit bundle still verifies.

const run = promisify(execFile);
const suite = serviceUnderTest('e2e_farmer_erasure', { MONITOR_ENABLED: 'false', LOG_LEVEL: 'debug' });
const { api, query } = suite;

// The marker goes in the farmer's name only: ids (idempotency key, field id) are not personal data and stay.
const runId = Date.now().toString(36);
const marker = `Zqmark${runId}`;
const owner: Caller = { sub: `farmer-erased-${Date.now()}` };
const insurer: Caller = { sub: 'underwriter-e', org: 'org-erasure', roles: ['insurer'] };
const feed: Caller = { sub: 'erasure-feed', org: insurer.org, roles: ['data_provider'] };
const admin: Caller = { sub: 'ops-e', org: 'org-ops', roles: ['admin'] };
const agent: Caller = { sub: 'agent-e', org: 'org-coop-e', roles: ['field_agent'] };

// What the erasure promises to remove in clear: the name (the marker), the phone and the farm's location.
const phone = '+254712345678';
const farmLocation = `by the river ${runId}`;

/** Every table of the read store and the log whose rows, as text, hold any of the farmer's personal data. */
const tablesHoldingPersonalData = async (): Promise<string[]> => {
  const tables = await query<{ name: string }>(
    `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`,
  );
  const holding: string[] = [];
  for (const { name } of tables.rows) {
    const patterns = [`%${marker}%`, `%${phone}%`, `%${farmLocation}%`];
    const found = await query(`select 1 from ${name} t where t::text like any($1) limit 1`, [patterns]);
    if (found.rowCount) holding.push(name);
  }
  return holding;
};

const cli = (script: 'audit' | 'rebuild', ...args: string[]) =>
  run('npm', ['run', '--silent', script, '--', ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, DATABASE_URL: suite.databaseUrl, AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info' },
  });

describe('erasing a farmer', () => {
  it('leaves no clear personal data anywhere, and the policy still pays and verifies', async () => {
    const created = await api.post(
      '/farms/farmers',
      owner,
      { first_name: `Amina${marker}`, last_name: 'Otieno', phone_number: phone, data_consent_given: true },
      { 'idempotency-key': `profile-${runId}` },
    );
    expect(created.status).toBe(201);
    const farm = await api.post(
      '/farms/create',
      owner,
      { name: `Shamba${marker}`, location: farmLocation },
      { 'idempotency-key': `farm-${runId}` },
    );
    expect(farm.status).toBe(201);
    const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: `plot-${runId}`,
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
    });
    expect(field.status).toBe(201);
    const cover = { farm_id: farm.body.farm_id, field_id: field.body.field_id };
    expect(
      (
        await api.post(`/farms/${cover.farm_id}/access`, owner, {
          organization_id: insurer.org,
          purposes: ['insurance'],
        })
      ).status,
    ).toBe(201);
    const policy = await api.post('/insurance/policies', insurer, {
      ...cover,
      perils: ['flood', 'storm'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
    });
    expect(policy.status).toBe(201);

    // Sealed from the start: the log never held the name or phone in clear; the API shows them. A row as
    // text holds the event's stored texts (the event itself: no jsonb copy), where the field's name, not
    // personal, is found.
    const inLog = async (patterns: string[]) =>
      (await query(`select stream_id, event_type from events e where e::text like any($1)`, [patterns])).rows;
    expect(await inLog([`%${marker}%`, `%${phone}%`, `%${farmLocation}%`])).toEqual([]);
    expect(await inLog(['%North plot%'])).not.toEqual([]);
    expect((await api.get('/farms/farmers/me', owner)).body).toMatchObject({ first_name: `Amina${marker}` });
    expect((await api.get(`/insurance/policies/${policy.body.policy_id}`, insurer)).body).toMatchObject({
      farm_name: `Shamba${marker}`,
    });

    // The monitor's rounds are off here: keep the snapshot of the policy a round keeps, its state opened
    // (the farm name in clear), so its reaction to the erasure is seen to drop it.
    await query(
      `insert into policy_snapshots (policy_id, stream_revision, position_commit, position_prepare, state_version,
         state, digest, owner_farmer_id)
       select policy_id, 0, 0, 0, 0, json_build_object('farm_name', $2::text)::text, '', owner_farmer_id
       from policies where policy_id = $1`,
      [policy.body.policy_id, `Shamba${marker}`],
    );
    expect((await tablesHoldingPersonalData()).sort()).toEqual([
      'public.farmers',
      'public.farms',
      'public.idempotency_keys',
      'public.policies',
      'public.policy_snapshots',
    ]);

    // Only an admin erases someone else.
    expectProblem(
      await api.post(`/farms/farmers/${created.body.platform_farmer_id}/erase`, insurer, {}),
      403,
      'forbidden',
    );
    const erased = await api.post('/farms/farmers/me/erase', owner, {});
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ first_name: '[erased]', last_name: '[erased]', phone_number: null });
    // Asked again (here by an admin), nothing more to do.
    expect((await api.post(`/farms/farmers/${created.body.platform_farmer_id}/erase`, admin, {})).status).toBe(200);
    expect(
      Number(
        (await query<{ count: string }>(`select count(*) from events where event_type = 'FarmerErased'`)).rows[0]!
          .count,
      ),
    ).toBe(1);

    expect((await api.get('/farms/farmers/me', owner)).body).toMatchObject({
      first_name: '[erased]',
      phone_number: null,
    });
    expect((await api.get(`/farms/${cover.farm_id}`, owner)).body).toMatchObject({ name: '[erased]', location: null });
    // The farm name frozen into the policy reads erased too; the policy is otherwise as issued.
    const erasedPolicy = await api.get(`/insurance/policies/${policy.body.policy_id}`, insurer);
    expect(erasedPolicy.body).toMatchObject({ farm_name: '[erased]', field_name: 'North plot', status: 'active' });
    expectProblem(await api.put('/farms/farmers/me', owner, { first_name: 'Again' }), 422, 'farmer_erased');
    // Each owner removes its own rows: the projections and the command API before the answer, the
    // monitor's snapshots as it reads the erasure.
    await expect.poll(tablesHoldingPersonalData, { timeout: 10_000 }).toEqual([]);

    // A rebuild of every read model from the log reads the erased values, not the names.
    await cli('rebuild');
    expect(await tablesHoldingPersonalData()).toEqual([]);
    expect((await api.get('/farms/farmers/me', owner)).body).toMatchObject({ first_name: '[erased]' });
    expect((await api.get(`/insurance/policies/${policy.body.policy_id}`, insurer)).body).toMatchObject({
      farm_name: '[erased]',
    });

    // The policy is untouched: it evaluates and pays.
    await recordReadings(api, feed, cover, 'rainfall_mm', policy.body.term_start, [40, 40, 40, 40, 20]);
    const evaluated = await api.post(`/insurance/policies/${policy.body.policy_id}/evaluate`, insurer, {});
    expect(evaluated.status).toBe(200);
    expect(evaluated.body).toMatchObject({ total_payout: 2000, payout_count: 1, policy_status: 'claimed' });

    // The log's hashes cover the sealed text: the audit bundle still verifies against the signed checkpoints.
    const keys = (await api.get('/audit/keys', insurer)).body.keys as { vkey: string }[];
    const directory = await mkdtemp(join(tmpdir(), 'erasure-audit-'));
    const bundle = join(directory, 'bundle.json');
    let exported: unknown;
    for (let attempt = 0; attempt < 30 && exported === undefined; attempt += 1) {
      exported = await cli('audit', 'export', policy.body.policy_id, '--out', bundle).catch(
        () => new Promise((resolve) => setTimeout(() => resolve(undefined), 1_000)),
      );
    }
    expect(JSON.parse(await readFile(bundle, 'utf8'))).toBeTruthy();
    await cli('audit', 'verify', bundle, ...keys.flatMap((key) => ['--key', key.vkey]));

    // Nothing the service logged (at debug) carries the name.
    expect(suite.service.output()).not.toContain(marker);
  }, 180_000);

  it('lets nobody claim an enrolled profile once it is erased: 404 as for any profile not theirs, nothing recorded', async () => {
    const enrolledPhone = '+254712349911';
    const enrolled = await api.post('/farms/registrations', agent, {
      farmer: {
        first_name: 'Neema',
        last_name: 'Wafula',
        phone_number: enrolledPhone,
        language: 'sw',
        upload_channel: 'ussd',
      },
      farm: { name: 'Shamba la Neema', country: 'KE' },
      consent: { method: 'verbal', recorded_at: new Date(Date.now() - 60_000).toISOString(), purposes: ['insurance'] },
    });
    expect(enrolled.status).toBe(201);
    const { platform_farmer_id } = enrolled.body.farmer;
    expect((await api.post(`/farms/farmers/${platform_farmer_id}/erase`, admin, {})).status).toBe(200);
    const events = async () => Number((await query<{ count: string }>('select count(*) from events')).rows[0]!.count);
    const before = await events();

    // The phone that proved the profile was the farmer's is gone with the key: the claim cannot match,
    // and it answers as an unknown code does, so it tells nobody that this profile existed.
    const claimant: Caller = { sub: `claimant-${runId}` };
    expectProblem(
      await api.post('/farms/farmers/claim', claimant, { platform_farmer_id, phone_number: enrolledPhone }),
      404,
      'not_found',
    );
    expect(await events()).toBe(before);
    expect((await api.get(`/farms/${enrolled.body.farm.farm_id}`, admin)).body).toMatchObject({ name: '[erased]' });
  }, 60_000);
});
