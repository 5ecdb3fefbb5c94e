import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// SPEC §6 assisted onboarding (issue 25): a field agent enrols a farmer with a farm and two fields, the
// consent evidence in the events; the farmer claims the profile from their own login and then manages the
// farm's grants like any owner.

const suite = serviceUnderTest('e2e_assisted_onboarding', { MONITOR_ENABLED: 'false' });
const { api, query } = suite;

const agent: Caller = { sub: 'agent-wanjiru', org: 'org-coop', roles: ['field_agent'] };
const insurer: Caller = { sub: 'underwriter-c', org: 'org-coop', roles: ['insurer'] };
const rival: Caller = { sub: 'underwriter-x', org: 'org-rival', roles: ['insurer'] };
const farmerLogin: Caller = { sub: 'farmer-amina-login' };

const enrolment = (phone: string) => ({
  farmer: { first_name: 'Amina', last_name: 'Otieno', phone_number: phone, language: 'sw', upload_channel: 'ussd' },
  farm: { name: 'Shamba la Mlimani', country: 'KE' },
  fields: [
    { field_id: `north-${phone.slice(-4)}`, name: 'North plot', area_ha: 1.5, location: { lat: -1.29, lon: 36.82 } },
    { name: 'River plot', area_ha: 0.8, location: { lat: -1.3, lon: 36.83 }, crop_type: 'maize' },
  ],
  consent: {
    method: 'signed_form',
    recorded_at: new Date(Date.now() - 3_600_000).toISOString(),
    purposes: ['insurance', 'advisory'],
    evidence_ref: 'form-2026-0042',
  },
});

const eventCount = async () =>
  Number(
    (
      await query<{ count: string }>(
        `select count(*) from events where stream_id not like 'programme-%' and stream_id not like 'reinsurance-%'`,
      )
    ).rows[0]!.count,
  );

describe('a field agent enrols a farmer, who claims the profile', () => {
  it('enrols a farmer with a farm and two fields, once per phone, and the farmer claims it', async () => {
    const body = enrolment('+254712340001');
    const enrolled = await api.post('/farms/registrations', agent, body);
    expect(enrolled.status).toBe(201);
    const { farmer, farm, fields } = enrolled.body;
    expect(farmer).toMatchObject({ first_name: 'Amina', phone_number: '+254712340001', upload_channel: 'ussd' });
    expect(farm).toMatchObject({ registered_by_org_id: agent.org, owner_id: farmer.farmer_id, is_active: true });
    expect(farm.organizations).toEqual([
      { organization_id: agent.org, relationship: 'insurance', linked_at: expect.any(String) },
    ]);
    expect(fields.map((field: { name: string }) => field.name)).toEqual(['North plot', 'River plot']);

    // The consent evidence is in the events: method, time, the agent, the purposes.
    const granted = await query<{ data: Record<string, unknown> }>(
      `select data from events_json where stream_id = $1 and event_type = 'FarmAccessGranted'`,
      [`farm-${farm.farm_id}`],
    );
    expect(granted.rows.map((row) => row.data)).toEqual([
      expect.objectContaining({
        organization_id: agent.org,
        purposes: ['insurance', 'advisory'],
        origin: 'assisted_onboarding',
        granted_by: agent.sub,
        consent: { method: 'signed_form', recorded_at: body.consent.recorded_at, evidence_ref: 'form-2026-0042' },
      }),
    ]);

    // The same enrolment again: one profile, nothing recorded.
    const before = await eventCount();
    const again = await api.post('/farms/registrations', agent, body);
    expect(again.status).toBe(200);
    expect(again.body.farmer.farmer_id).toBe(farmer.farmer_id);
    expect(again.body.farm.farm_id).toBe(farm.farm_id);
    expect(await eventCount()).toBe(before);

    // The organization reads the farm and its fields through its grant, and its insurer quotes on it.
    expect((await api.get(`/farms/${farm.farm_id}/fields`, agent)).body.items).toHaveLength(2);
    const cover = {
      farm_id: farm.farm_id,
      field_id: fields[0].field_id,
      perils: ['flood'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), 1),
      term_end: addDays(today(), 90),
    };
    expect((await api.post('/insurance/quote', insurer, cover)).status).toBe(200);
    expectProblem(await api.post('/insurance/quote', rival, cover), 404, 'not_found');
    // Before the claim no login manages the farm; the agent may read it, not grant.
    expectProblem(
      await api.post(`/farms/${farm.farm_id}/access`, agent, { organization_id: rival.org, purposes: ['insurance'] }),
      403,
      'not_farm_owner',
    );

    // A wrong phone is answered as an unknown profile, and changes nothing.
    const beforeClaim = await eventCount();
    expectProblem(
      await api.post('/farms/farmers/claim', farmerLogin, {
        platform_farmer_id: farmer.platform_farmer_id,
        phone_number: '+254799999999',
      }),
      404,
      'not_found',
    );
    expect(await eventCount()).toBe(beforeClaim);

    const claimed = await api.post('/farms/farmers/claim', farmerLogin, {
      platform_farmer_id: farmer.platform_farmer_id.toLowerCase(),
      phone_number: '+254712340001',
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ farmer_id: farmer.farmer_id, platform_farmer_id: farmer.platform_farmer_id });
    expect((await api.get('/farms/farmers/me', farmerLogin)).body.farmer_id).toBe(farmer.farmer_id);

    // Now the farmer owns the farm: sees every grant, grants, revokes.
    const listed = await api.get(`/farms/${farm.farm_id}/access`, farmerLogin);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ organization_id: agent.org, origin: 'assisted_onboarding' }),
    ]);
    const toRival = await api.post(`/farms/${farm.farm_id}/access`, farmerLogin, {
      organization_id: rival.org,
      purposes: ['insurance'],
    });
    expect(toRival.status).toBe(201);
    expect(toRival.body.origin).toBe('owner');
    expect((await api.post('/insurance/quote', rival, cover)).status).toBe(200);
    expect((await api.delete(`/farms/${farm.farm_id}/access/${agent.org}`, farmerLogin)).status).toBe(204);
    expectProblem(await api.get(`/farms/${farm.farm_id}`, agent), 404, 'not_found');

    // A farm the farmer creates later is theirs under the same profile; a second profile is refused.
    const second = await api.post('/farms/create', farmerLogin, { name: 'Second shamba' });
    expect(second.status).toBe(201);
    expect(second.body.owner_id).toBe(farmer.farmer_id);
    expectProblem(
      await api.post('/farms/farmers', farmerLogin, { first_name: 'Amina', last_name: 'Otieno' }),
      409,
      'farmer_profile_exists',
    );
  });

  it('refuses bad enrolments and claims, changing nothing', async () => {
    const body = enrolment('+254712340002');
    expect((await api.post('/farms/registrations', agent, body)).status).toBe(201);
    const before = await eventCount();
    const owner: Caller = { sub: 'farmer-with-own-profile', givenName: 'Juma', familyName: 'Mwangi' };
    expect((await api.post('/farms/farmers', owner, { first_name: 'Juma', last_name: 'Mwangi' })).status).toBe(201);
    const afterOwn = await eventCount();
    expect(afterOwn).toBeGreaterThan(before);

    // Only field agents enrol.
    expectProblem(await api.post('/farms/registrations', insurer, enrolment('+254712340003')), 403, 'forbidden');
    // The same phone with other details.
    expectProblem(
      await api.post('/farms/registrations', agent, { ...body, farm: { name: 'Another name' } }),
      409,
      'farmer_already_enrolled',
    );
    // Consent recorded in the future.
    expectProblem(
      await api.post('/farms/registrations', agent, {
        ...enrolment('+254712340004'),
        consent: { ...body.consent, recorded_at: new Date(Date.now() + 3_600_000).toISOString() },
      }),
      422,
      'consent_in_future',
    );
    // Malformed: unknown consent method, a repeated field id, a missing upload channel, an unknown field.
    const twice = { ...body.fields[0], name: 'Twice' };
    for (const bad of [
      { ...enrolment('+254712340005'), consent: { ...body.consent, method: 'telepathy' } },
      { ...enrolment('+254712340006'), fields: [body.fields[0], twice] },
      { ...enrolment('+254712340007'), farmer: { first_name: 'A', last_name: 'B' } },
      { ...enrolment('+254712340008'), extra: true },
    ])
      expectProblem(await api.post('/farms/registrations', agent, bad), 400, 'validation_failed');
    // A login with its own profile cannot claim; a malformed claim is 400.
    const code = (
      await query<{ platform_farmer_id: string }>(
        `select platform_farmer_id from farmers where phone_number = '+254712340002'`,
      )
    ).rows[0]!.platform_farmer_id;
    expectProblem(
      await api.post('/farms/farmers/claim', owner, { platform_farmer_id: code, phone_number: '+254712340002' }),
      409,
      'farmer_profile_exists',
    );
    expectProblem(
      await api.post('/farms/farmers/claim', farmerLogin, { platform_farmer_id: code, phone_number: 'not a phone' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await api.post(
        '/farms/farmers/claim',
        { sub: 'stranger-1' },
        {
          platform_farmer_id: 'PF-0000000',
          phone_number: '+254712340002',
        },
      ),
      404,
      'not_found',
    );
    expect(await eventCount()).toBe(afterOwn);
  });
});
