import { type Caller, tokenFor } from '../src/support/api-client';
import type { RunningService } from '../src/support/service-process';
import { PERILS, READINGS_PER_REQUEST, term, thirtySeasons } from './thirty-seasons';

// A four-peril cover priced from sources, as the insurance benchmarks measure it: 30 years of daily
// rainfall posted once to a 0.05° grid cell of a registered grid source (which drought and flood name in
// `data_sources`), and NDVI and wind in the insurer's own field source.

export type Headers = Record<string, string>;

const headersFor = async (caller: Caller): Promise<Headers> => ({
  authorization: `Bearer ${await tokenFor(caller)}`,
  'content-type': 'application/json',
});

// Drawn once: the generator goes on from where it stopped, so a second draw would be other weather, and
// services compared in one run must price the same history.
const history = thirtySeasons();

/** The farmer, the insurer and the insurer's own data provider the benchmarks act as. */
export const benchCallers = async () => ({
  farmer: await headersFor({ sub: 'bench-farmer', givenName: 'Bench', familyName: 'Mark' }),
  insurer: await headersFor({ sub: 'bench-underwriter', org: 'org-bench', roles: ['insurer'] }),
  provider: await headersFor({ sub: 'bench-feed', org: 'org-bench', roles: ['data_provider'] }),
});

export const postTo = async (service: RunningService, path: string, headers: Headers, body: unknown) => {
  const response = await fetch(`${service.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, any>;
};

/** Seeds the farm's field with 30 seasons (by grid and field source, or all on the field as the code
 *  before sources read them) and answers the cover that prices every peril by burning cost on them. */
export const seedThirtySeasons = async (
  service: RunningService,
  provider: Headers,
  farmId: string,
  fieldId: string,
  bySource: boolean,
): Promise<{ readonly cover: Record<string, unknown>; readonly readings: number }> => {
  let cover: Record<string, unknown> = {
    farm_id: farmId,
    field_id: fieldId,
    perils: PERILS,
    sum_insured: 100_000,
    currency: 'KES',
    ...term,
  };
  let readings: object[];
  if (bySource) {
    const grid = await postTo(service, '/insurance/index-sources', provider, {
      kind: 'grid',
      name: 'Rainfall grid',
      index: 'rainfall_mm',
      resolution_deg: 0.05,
    });
    readings = history.map(({ index, date, value }) =>
      index === 'rainfall_mm'
        ? { source_id: grid.source_id, location: '-1.275,36.825', date, value }
        : { farm_id: farmId, field_id: fieldId, index, date, value },
    );
    cover = { ...cover, data_sources: { drought: grid.source_id, flood: grid.source_id } };
  } else {
    readings = history.map((reading) => ({ farm_id: farmId, field_id: fieldId, ...reading }));
  }
  for (let at = 0; at < readings.length; at += READINGS_PER_REQUEST) {
    await postTo(service, '/insurance/index-readings', provider, {
      readings: readings.slice(at, at + READINGS_PER_REQUEST),
    });
  }
  return { cover, readings: readings.length };
};
