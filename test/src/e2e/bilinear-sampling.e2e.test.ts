import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { serviceUnderTest } from '../support/service-under-test';

// INDEX-DATA.md §1 `sampling: bilinear` and §5 acceptance 1 (its bilinear half) through `npm start`: a
// GeoTIFF made by gdal_translate is ingested into a 0.25° bilinear source, and a field between four cell
// centres reads, each day, what GDAL's own bilinear resampling (gdalwarp -r bilinear onto one tiny pixel
// centred on the field) finds there, to 6 decimals.

const suite = serviceUnderTest('e2e_bilinear_sampling', { MONITOR_ENABLED: 'false' });
const { api } = suite;
const work = mkdtempSync(join(tmpdir(), 'e2e-bilinear-'));
const insurer: Caller = { sub: 'underwriter', org: 'org-ins', roles: ['insurer'] };
const provider: Caller = { sub: 'chirps-feed', org: 'org-chg', roles: ['data_provider'] };
const owner: Caller = { sub: `farmer-bilinear-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' };

/** 4 × 3 cells of 0.25° from (−2, 30), one band per day: wet, but below the flood cover's trigger. */
const DAYS = [
  ['10.375 10.5625 10.78125 10', '11 11.375 11.5625 11.75', '12.125 12.25 10.03125 10.275'],
  ['9.50025 9.825 10.675 10.25', '10.5 10.83325 11 11.25', '11.5 11.75 12 12.25'],
  ['10 10 10 10', '10.03125 10.21875 10.375 10.5', '10.75 11 11.25 11.5'],
  ['9.975 9.95 9.925 9.9', '9.875 9.85 9.825 9.8', '9.775 9.75 9.725 9.7'],
  ['11.25 11 10.75 10.5', '10.25 10 9.75 9.5', '9.25 9 8.75 8.5'],
];
const FIELD = { lat: -1.53, lon: 30.31 };

const geotiff = (): string => {
  const inputs = DAYS.map((rows, at) => {
    const path = join(work, `day-${at}.asc`);
    writeFileSync(
      path,
      `ncols 4\nnrows 3\nxllcorner 30.0\nyllcorner -2.0\ncellsize 0.25\nNODATA_value -9999\n${rows.join('\n')}\n`,
    );
    return path;
  });
  const vrt = join(work, 'days.vrt');
  const tif = join(work, 'days.tif');
  execFileSync('gdalbuildvrt', ['-q', '-separate', vrt, ...inputs]);
  execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', '-ot', 'Float64', vrt, tif]);
  return tif;
};

/** GDAL's bilinear value of band `band` at the field: one 10⁻⁶° pixel centred on it, warped bilinearly. */
const gdalBilinear = (tif: string, band: number): number => {
  const out = join(work, `point-${band}.tif`);
  const half = 0.0000005;
  // Debian's GDAL 3.6 gdalwarp has no `-b`: the band is taken out first.
  const single = join(work, `band-${band}.tif`);
  execFileSync('gdal_translate', ['-q', '-b', String(band), tif, single]);
  execFileSync('gdalwarp', [
    '-q',
    '-overwrite',
    '-r',
    'bilinear',
    '-ot',
    'Float64',
    '-te',
    String(FIELD.lon - half),
    String(FIELD.lat - half),
    String(FIELD.lon + half),
    String(FIELD.lat + half),
    '-ts',
    '1',
    '1',
    single,
    out,
  ]);
  return Number(execFileSync('gdallocationinfo', ['-valonly', out, '0', '0']).toString().trim());
};

describe('a field on a bilinear grid source', () => {
  it('reads each day between its four nearest cell centres, as GDAL interpolates, with its data in provenance', async () => {
    const registered = await api.post('/insurance/index-sources', provider, {
      kind: 'grid',
      name: 'CHIRPS 0.25 bilinear',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
      sampling: 'bilinear',
      unit: 'mm',
      product: { name: 'CHIRPS', version: '2.0' },
    });
    expect(registered.status).toBe(201);
    const sourceId = registered.body.source_id as string;
    const dates = DAYS.map((_, at) => addDays(today(), at - 5));
    const tif = geotiff();
    const ingested = await fetch(
      `${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?dates=${dates.join(',')}&label=final`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${await tokenFor(provider)}`, 'content-type': 'image/tiff' },
        body: readFileSync(tif),
      },
    );
    expect(ingested.status).toBe(202);

    const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
    await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
    await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: 'plot-1',
      name: 'Plot',
      area_ha: 1.5,
      location: FIELD,
    });
    const issued = await api.post('/insurance/policies', insurer, {
      farm_id: farm.body.farm_id,
      field_id: 'plot-1',
      perils: ['flood'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
      data_sources: { flood: sourceId },
    });
    expect(issued.status).toBe(201);
    expect(issued.body.triggers[0].data_source).toMatchObject({
      location: '-1.53,30.31',
      sampling: { method: 'bilinear', point: FIELD, resolution_deg: 0.25 },
    });

    // The 5-day rain the flood cover sums is the sum of each day's bilinear value, each rounded to 6 decimals.
    const dayValues = DAYS.map((_, at) => Math.round(gdalBilinear(tif, at + 1) * 1e6) / 1e6);
    const expected = DAYS.reduce((sum, _, at) => sum + Math.round(gdalBilinear(tif, at + 1) * 1e6), 0) / 1e6;
    const evaluated = await api.post(`/insurance/policies/${issued.body.policy_id}/evaluate`, insurer, {});
    expect(evaluated.status).toBe(200);
    expect(evaluated.body.events[0].observed_value).toBe(expected);

    const events = await api.get(`/insurance/policies/${issued.body.policy_id}/events`, insurer);
    const trigger = events.body.items.find((event: { type: string }) => event.type === 'TriggerEvaluated');
    expect(trigger.data.provenance).toMatchObject({
      source_id: sourceId,
      product: { name: 'CHIRPS', version: '2.0' },
      unit: 'mm',
      sampling: { method: 'bilinear' },
      readings_used: 5,
    });

    // INDEX-DATA §4: the file every value came from, by the SHA-256 of its bytes, and each value's line
    // (its four cells' revisions summed, the release, the file) in a digest an auditor recomputes from it.
    const fileSha256 = createHash('sha256').update(readFileSync(tif)).digest('hex');
    expect(((await ingested.json()) as { sha256: string }).sha256).toBe(fileSha256);
    expect(trigger.data.provenance.files).toEqual([{ sha256: fileSha256, label: 'final', values: 5 }]);
    const lines = dates.map((date, at) => `${date},${dayValues[at]},4,final,${fileSha256}\n`).join('');
    expect(trigger.data.provenance.origin_digest).toBe(`sha256:${createHash('sha256').update(lines).digest('hex')}`);
    // The policy view, which the console's policy page reads, names the same file under the cover.
    const policy = await api.get(`/insurance/policies/${issued.body.policy_id}`, insurer);
    expect(policy.body.triggers[0].files).toEqual([{ sha256: fileSha256, label: 'final', values: 5 }]);
  }, 120_000);
});
