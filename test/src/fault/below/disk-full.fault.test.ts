import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeNeeding } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiResponse, apiClient, type Caller } from '../../support/api-client';
import { addDays, today } from '../../support/calendar';
import { freePort } from '../../support/service-process';
import { eventually } from '../../support/webhook-receiver';
import { insurer, STALLED_AFTER_MS } from './insurance-workload';
import { whyFaultsCannotRun } from './network-namespace';
import { createPrimaryCluster, type PostgresCluster } from './postgres-cluster';
import { mountSmallDisk, type SmallDisk } from './small-disk';
import { type StruckTopology, startStruckTopology } from './struck-topology';

// SPEC §10 "Disk full": PostgreSQL's data directory, then the service's DATA_DIR (index files kept by
// their SHA-256, the audit checkpoint sink), each on a small disk of its own filled to the brim under the
// workload, then given its space back. Writes answer 503 with Retry-After within their bound, reads go on
// answering, nothing is half written (every invariant of the suite), and the service takes writes again
// within seconds of the space's return, without a restart of anything.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FULL_FOR_MS = 20_000;
const provider: Caller = { sub: 'disk-full-feed', org: 'org-faults', roles: ['data_provider'] };

let pgDisk: SmallDisk | undefined;
let dataDisk: SmallDisk | undefined;
let cluster: PostgresCluster | undefined;
let struck: StruckTopology;

/** Reads of the query API every 0.5 s until `stop()`: their statuses, so a scenario can say reads answered. */
const readWhile = () => {
  const statuses: (number | 'lost')[] = [];
  let reading = true;
  const loop = (async () => {
    while (reading) {
      const answer = await apiClient(struck.topology.urlOf('queryApi'))
        .request('GET', '/insurance/policies?page_size=5', {
          caller: insurer,
          signal: AbortSignal.timeout(STALLED_AFTER_MS),
        })
        .catch(() => undefined);
      statuses.push(answer?.status ?? 'lost');
      await sleep(500);
    }
  })();
  return {
    stop: async () => {
      reading = false;
      await loop;
      return statuses;
    },
  };
};

describeNeeding('Disk full under load (SPEC §10)', await whyFaultsCannotRun(), () => {
  beforeAll(async () => {
    cluster = await createPrimaryCluster(await freePort(), {
      mountData: async (dataDir, owner) => {
        pgDisk = await mountSmallDisk(dataDir, 192, owner);
      },
    });
    const mounted = await mountSmallDisk(join(cluster.dataDir, '..', 'service-data'), 32);
    dataDisk = mounted;
    struck = await startStruckTopology(cluster, {
      DATA_DIR: mounted.path,
      AUDIT_CHECKPOINT_DIR: join(mounted.path, 'audit-checkpoints'),
    });
  });

  afterAll(async () => {
    await struck?.stop();
    // The cluster stops before its disk goes, and its home (where the disks are mounted) after.
    await cluster?.stop();
    await pgDisk?.unmount();
    await dataDisk?.unmount();
    await cluster?.remove();
  });

  it("PostgreSQL's data directory full for 20 s: writes 503 with Retry-After, reads answer, writes again within seconds", async () => {
    let reads: (number | 'lost')[] = [];
    const figures = await struck.underLoad('postgres-data-full', async () => {
      const reader = readWhile();
      const from = performance.now();
      const giveBack = await pgDisk!.fill();
      await sleep(FULL_FOR_MS);
      await giveBack();
      const to = performance.now();
      reads = await reader.stop();
      return { from, to };
    });
    console.info(`reliability: postgres-data-full reads ${JSON.stringify(countOf(reads))}`);
    // The fault bit: writes were refused while the disk was full.
    expect(Object.keys(figures.refused).length).toBeGreaterThan(0);
    expect(reads.length).toBeGreaterThan(10);
    expect(reads.filter((status) => status !== 200)).toEqual([]);
    expect(figures.slowestRefusalMs).toBeLessThan(10_000);
    expect(figures.recoveredAfterMs).toBeLessThan(10_000);
  });

  it('DATA_DIR full for 20 s: an index file is refused 503 storage_full and leaves nothing, then taken; the checkpoint sink says why it waits', async () => {
    const api = apiClient(struck.topology.urlOf('commandApi'));
    const registered = await api.post('/insurance/index-sources', provider, {
      kind: 'station',
      name: 'Disk-full gauges',
      index: 'rainfall_mm',
      stations: [{ station_id: 'DF-1', lat: -1.29, lon: 36.82 }],
      radius_km: 5,
    });
    expect(registered.status).toBe(201);
    const sourceId: string = registered.body.source_id;
    const csv = ['location,date,value', ...[1, 2, 3].map((day) => `DF-1,${addDays(today(), -day)},${day}.5`)].join(
      '\n',
    );
    const upload = (): Promise<ApiResponse> =>
      api.request('POST', `/insurance/index-sources/${sourceId}/files?label=final`, {
        caller: provider,
        rawBody: csv,
        headers: { 'content-type': 'text/csv' },
        signal: AbortSignal.timeout(STALLED_AFTER_MS),
      });
    const recorded = async () => ({
      ingestions: (await struck.pool.query('select count(*)::int as n from index_file_ingestions')).rows[0].n,
      readings: (
        await struck.pool.query('select count(*)::int as n from index_readings where source_id = $1', [sourceId])
      ).rows[0].n,
      files: (await readdir(join(dataDisk!.path, 'index-files')).catch(() => [])).sort(),
    });
    const before = await recorded();
    let refused: ApiResponse | undefined;
    let sinkWhileFull: ApiResponse | undefined;
    let taken: ApiResponse | undefined;
    let takenAfterMs = 0;
    const figures = await struck.underLoad('data-dir-full', async () => {
      const from = performance.now();
      const giveBack = await dataDisk!.fill();
      refused = await upload();
      // Breaches go on being paid meanwhile; the integrator offers the sink checkpoints, and it refuses them.
      sinkWhileFull = await eventually(async () => {
        const ready = await apiClient(struck.topology.urlOf('queryApi')).request('GET', '/readyz');
        return ready.status === 503 ? ready : undefined;
      }, FULL_FOR_MS).catch(() => undefined);
      await sleep(Math.max(0, FULL_FOR_MS - (performance.now() - from)));
      await giveBack();
      const to = performance.now();
      taken = await upload();
      takenAfterMs = Math.round(performance.now() - to);
      return { from, to };
    });
    console.info(
      `reliability: data-dir-full upload ${refused?.status} ${refused?.body?.code} Retry-After ${refused?.headers.get('retry-after')}; sink ${JSON.stringify(sinkWhileFull?.body)}; taken ${taken?.status} after ${takenAfterMs} ms`,
    );
    expect(refused).toMatchObject({ status: 503, body: { code: 'storage_full' } });
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(sinkWhileFull?.status).toBe(503);
    expect(sinkWhileFull?.body.checks.audit_checkpoint_sink).toEqual({ status: 'failing' });
    // The reason goes to the log (`/readyz` is unauthenticated): the full disk, said as such.
    expect(struck.topology.output()).toMatch(
      /the audit checkpoint sink refuses checkpoints: the disk of the checkpoint sink \S+ is full: ENOSPC/,
    );
    expect(taken).toMatchObject({ status: 202, body: { status: 'succeeded', readings_written: 3 } });
    const after = await recorded();
    expect(after).toEqual({
      ingestions: before.ingestions + 1,
      readings: before.readings + 3,
      files: [...before.files, taken?.body.sha256].sort(),
    });
    expect(figures.recoveredAfterMs).toBeLessThan(10_000);
  });
});

const countOf = (statuses: readonly (number | 'lost')[]) =>
  statuses.reduce<Record<string, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});
