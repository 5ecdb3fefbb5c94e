import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { serviceUnderTest } from '../support/service-under-test';

// Issue 12: each HTTP worker keeps a reading-history cache and the quotes it priced. Through `npm start`
// with two workers, every quote and issue after a readings write has been acknowledged prices from the
// new readings, whichever worker priced before.

const WORKERS = 2;
/** Requests on fresh connections: the cluster hands connections to its workers in turn, so each worker
 *  serves some of them. */
const ROUNDS = 4 * WORKERS;

const suite = serviceUnderTest('e2e_pricing_after_readings', {
  MONITOR_ENABLED: 'false',
  HTTP_WORKERS: String(WORKERS),
});
const { api } = suite;

const owner: Caller = { sub: 'farmer-pricing-after-readings', givenName: 'Amina', familyName: 'Otieno' };
const insurer: Caller = { sub: 'underwriter', org: 'org-cache', roles: ['insurer'] };
const insurersFeed: Caller = { sub: 'cache-feed', org: 'org-cache', roles: ['data_provider'] };

/** POST on a connection of its own, so the cluster may give it to any worker. */
const postOnNewConnection = async (path: string, caller: Caller, body: unknown) => {
  const token = await tokenFor(caller);
  const text = JSON.stringify(body);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const outgoing = request(
      `${suite.service.baseUrl}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (response) => {
        let answer = '';
        response.on('data', (chunk: Buffer) => {
          answer += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(answer) }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
};

describe('pricing after new readings, across HTTP workers', () => {
  it('refuses on a storm recorded after every worker quoted the cover without it', async () => {
    const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
    expect(farm.status).toBe(201);
    await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
    const fieldId = 'plot';
    const added = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: fieldId,
      name: 'Plot',
      area_ha: 2,
      location: { lat: -1.29, lon: 36.82 },
    });
    expect(added.status).toBe(201);
    const field = { farm_id: farm.body.farm_id as string, field_id: fieldId };
    await recordReadings(api, insurersFeed, field, 'wind_speed_ms', addDays(today(), -7), [6, 7, 5, 6]);
    const cover = {
      ...field,
      perils: ['storm'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -7),
      term_end: addDays(today(), 90),
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      expect((await postOnNewConnection('/insurance/quote', insurer, cover)).status).toBe(200);
    }

    await recordReadings(api, insurersFeed, field, 'wind_speed_ms', addDays(today(), -3), [45]);

    for (let round = 0; round < ROUNDS; round += 1) {
      const quote = await postOnNewConnection('/insurance/quote', insurer, cover);
      expect(quote.status, `quote ${round}`).toBe(422);
      expect(quote.body.code).toBe('known_loss');
      const issued = await postOnNewConnection('/insurance/policies', insurer, cover);
      expect(issued.status, `issue ${round}`).toBe(422);
    }

    // A correction back to calm is priced at once too.
    await recordReadings(api, insurersFeed, field, 'wind_speed_ms', addDays(today(), -3), [6]);
    for (let round = 0; round < ROUNDS; round += 1) {
      expect((await postOnNewConnection('/insurance/quote', insurer, cover)).status, `quote ${round}`).toBe(200);
    }
  });
});
