import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { expect, it } from 'vitest';
import { apiClient, type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { type RunningService, startService } from '../support/service-process';

// An ingestion job cut by a crash of its process (SIGKILL mid-file) is taken up again from the kept file
// when the service is back, once the dead process's lease has run out: it ends `succeeded` with every
// reading written once, never left `running` forever.

const provider: Caller = { sub: 'gauge-feed', org: 'org-kmd', roles: ['data_provider'] };
const STATIONS = Array.from({ length: 30 }, (_, at) => `KMD-${String(at + 1).padStart(2, '0')}`);
const DAYS = Array.from({ length: 3000 }, (_, at) => addDays(today(), -1 - at));

/** A long CSV of 90,000 readings: big enough to still be running when its process is killed. */
const longCsv = (): Buffer =>
  Buffer.from(
    [
      'location,date,value',
      ...DAYS.flatMap((date, day) => STATIONS.map((station, at) => `${station},${date},${(day * 7 + at) % 400}.5`)),
    ].join('\n'),
  );

it('resumes an ingestion job its crashed process left running', async () => {
  const database = await createTestDatabase('e2e_index_file_restart');
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-index-file-restart-')),
    INDEX_FILE_JOB_BYTES: '1000',
    MONITOR_ENABLED: 'false',
  };
  const sql = new pg.Client({ connectionString: database.url });
  let service: RunningService | undefined;
  try {
    service = await startService(env);
    const first = service;
    const api = apiClient(() => first.baseUrl);
    const registered = await api.post('/insurance/index-sources', provider, {
      kind: 'station',
      name: 'KMD gauges',
      index: 'rainfall_mm',
      stations: STATIONS.map((station_id, at) => ({ station_id, lat: -1 + at * 0.01, lon: 36.8 })),
      radius_km: 5,
    });
    expect(registered.status).toBe(201);
    const sourceId = registered.body.source_id;
    const posted = await fetch(`${first.baseUrl}/insurance/index-sources/${sourceId}/files?label=final`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenFor(provider)}`, 'content-type': 'text/csv' },
      body: longCsv(),
    });
    expect(posted.status).toBe(202);
    const location = posted.headers.get('location')!;
    await first.kill();

    await sql.connect();
    const cut = await sql.query('select status from index_file_ingestions');
    expect(['queued', 'running']).toContain(cut.rows[0]?.status);
    expect((await sql.query('select count(*)::int as n from index_readings')).rows[0].n).toBe(0);
    // The dead process's lease runs out, as it would 30 s later.
    await sql.query(`update index_file_ingestions set leased_until = now() - interval '1 second'`);

    service = await startService(env);
    const second = service;
    const again = apiClient(() => second.baseUrl);
    let ingestion = (await again.get(location, provider)).body;
    for (
      let waited = 0;
      ingestion.status !== 'succeeded' && ingestion.status !== 'failed' && waited < 240;
      waited += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      ingestion = (await again.get(location, provider)).body;
    }
    expect(ingestion).toMatchObject({ status: 'succeeded', readings_written: 90_000, locations: 30, periods: 3000 });
    expect((await sql.query('select count(*)::int as n from index_readings')).rows[0].n).toBe(90_000);
    expect((await sql.query('select attempts from index_file_ingestions')).rows).toEqual([{ attempts: 2 }]);
  } finally {
    await sql.end().catch(() => undefined);
    await service?.stop();
    await database.drop();
  }
}, 900_000);
