import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { ApiClient, Caller } from './api-client';
import { addDays, today } from './calendar';
import { grantInsurance } from './farm-access';
import type { ReceivedWebhook } from './webhook-receiver';

// A breach through the API alone: an insurer of its own organization, a farm that grants it insurance, a
// policy whose flood trigger its readings breach, a webhook subscription, and the delivery's signature.

let sequence = 0;
/** An insurer of an organization of its own, so each test sees only its own deliveries. */
export const newInsurer = (): Caller => ({
  sub: `underwriter-${++sequence}`,
  org: `org-${sequence}-${Date.now()}`,
  roles: ['insurer'],
});
/** The data provider of `insurer`'s own organization: a policy that names no source reads only the field
 *  readings its own organization posted. */
export const dataProviderOf = (insurer: Caller): Caller => ({
  sub: 'weather-feed',
  org: insurer.org,
  roles: ['data_provider'],
});

/** A flood-and-storm policy of `insurer` whose flood trigger is breached once evaluated: 5-day rainfall
 *  180 mm against 150 → severity 0.2 → 2,000 of 10,000 USD. */
export const breachablePolicy = async (api: ApiClient, insurer: Caller) => {
  const owner: Caller = { sub: `farmer-${++sequence}-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' };
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${sequence}`,
    name: 'North plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
  });
  expect(field.status).toBe(201);
  const termStart = addDays(today(), -5);
  const policy = await api.post('/insurance/policies', insurer, {
    farm_id: farm.body.farm_id,
    field_id: field.body.field_id,
    perils: ['flood', 'storm'],
    sum_insured: 10000,
    currency: 'USD',
    term_start: termStart,
    term_end: addDays(today(), 90),
  });
  expect(policy.status).toBe(201);
  const readings = await api.post('/insurance/index-readings', dataProviderOf(insurer), {
    readings: [40, 40, 40, 40, 20].map((value, offset) => ({
      farm_id: farm.body.farm_id,
      field_id: field.body.field_id,
      index: 'rainfall_mm',
      date: addDays(termStart, offset),
      value,
    })),
  });
  expect(readings.status).toBe(200);
  return policy.body as { policy_id: string; farm_id: string; field_id: string };
};

export const evaluate = async (api: ApiClient, insurer: Caller, policyId: string) => {
  const response = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
  expect(response.status).toBe(200);
  return response.body;
};

export const subscribe = async (api: ApiClient, insurer: Caller, url: string, description?: string) => {
  const response = await api.post('/insurance/webhooks/trigger-events', insurer, { url, description });
  expect(response.status).toBe(201);
  return response.body as { webhook_id: string; raw_secret: string };
};

export const verified = (secret: string, request: ReceivedWebhook): any =>
  new Webhook(secret).verify(request.body, request.headers);
