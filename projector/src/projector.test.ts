import { farmerStream, farmStream } from '@cropcover/domain';
import { type GlobalPosition, isAtOrAfter } from '@cropcover/eventstore';
import {
  decodeProgress,
  PROJECTIONS_ADVANCED_CHANNEL,
  type ProjectionProgress,
  readCheckpoint,
} from '@cropcover/read-store';
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LAG_EVENTS_METRIC, LAG_SECONDS_METRIC } from './lag-metrics';
import type { Projection } from './projection';
import { farmersProjection } from './projections/farmers-projection';
import { type Projector, startProjector } from './projector';
import { readModelProjections } from './read-model-projections';
import { gatedProjection } from './testing/gated-projection';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from './testing/projector-test-database';
import { farmerRegistered, farmRegistered, newEvent } from './testing/registry-events';
import { readWholeLog } from './testing/visible-log';

const caughtUp = (projector: Projector, names: readonly string[], position: GlobalPosition) =>
  vi.waitFor(
    () => {
      for (const name of names) expect(isAtOrAfter(projector.checkpoint(name), position)).toBe(true);
    },
    { timeout: 10_000, interval: 20 },
  );

const gaugeValue = async (registry: Registry, metric: string, projection: string): Promise<number | undefined> => {
  const values = (await registry.getSingleMetric(metric)?.get())?.values ?? [];
  return values.find((value) => value.labels.projection === projection)?.value;
};

describe('projector', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_run');
  });
  afterAll(() => t?.close());

  it('projects appended events and announces each committed checkpoint in-process and over NOTIFY', async () => {
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    const notified: ProjectionProgress[] = [];
    listener.on('notification', ({ payload }) => {
      if (payload) notified.push(...decodeProgress(payload));
    });
    await listener.query(`listen ${PROJECTIONS_ADVANCED_CHANNEL}`);

    const projector = await startProjector({ ...t, projections: readModelProjections });
    const announced: ProjectionProgress[] = [];
    projector.onAdvanced((progress) => announced.push(progress));
    await t.eventStore.append(
      farmerStream('live'),
      [farmerRegistered('live', '2026-03-01T10:00:00.000Z')],
      'no_stream',
    );
    const { position } = await t.eventStore.append(
      farmStream('live-farm'),
      [farmRegistered('live-farm', 'live', '2026-03-01T11:00:00.000Z')],
      'no_stream',
    );
    await caughtUp(projector, ['farmers', 'farms'], position);
    await vi.waitFor(() =>
      expect(notified.map((progress) => progress.name)).toEqual(expect.arrayContaining(['farmers', 'farms'])),
    );
    await projector.stop();
    await listener.end();

    expect(await t.db.selectFrom('farms').select('farm_id').execute()).toEqual([{ farm_id: 'live-farm' }]);
    expect(await t.db.selectFrom('farmers').select('farmer_id').execute()).toEqual([{ farmer_id: 'live' }]);
    const last = (list: ProjectionProgress[], name: string) => list.filter((progress) => progress.name === name).at(-1);
    for (const name of ['farmers', 'farms']) {
      expect(last(announced, name)?.position).toEqual(position);
      expect(last(notified, name)?.position).toEqual(position);
      expect(await readCheckpoint(t.db, name)).toEqual(position);
    }
  });

  it('resumes from its stored checkpoint after a restart, applying no event twice', async () => {
    const seen: string[] = [];
    const counting: Projection = {
      ...farmersProjection,
      name: 'counting',
      apply: async (trx, events) => {
        seen.push(...events.map((event) => event.metadata.event_id));
        await farmersProjection.apply(trx, events);
      },
    };
    const first = await startProjector({ ...t, projections: [counting] });
    const { position: before } = await t.eventStore.append(
      farmerStream('resume-1'),
      [farmerRegistered('resume-1', '2026-03-02T10:00:00.000Z')],
      'no_stream',
    );
    await caughtUp(first, ['counting'], before);
    await first.stop();
    const seenBeforeRestart = seen.length;

    const { position: after } = await t.eventStore.append(
      farmerStream('resume-2'),
      [farmerRegistered('resume-2', '2026-03-02T11:00:00.000Z')],
      'no_stream',
    );
    const second = await startProjector({ ...t, projections: [counting] });
    await caughtUp(second, ['counting'], after);
    await second.stop();

    expect(seen.length).toBe(seenBeforeRestart + 1);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await t.eventStore.readAll('start', 1000)).map((event) => event.metadata.event_id)).toEqual(seen);
  });

  it('retries a failed batch until it succeeds', async () => {
    let failures = 0;
    const flaky: Projection = {
      ...farmersProjection,
      name: 'flaky',
      apply: async (trx, events) => {
        await farmersProjection.apply(trx, events);
        if (failures < 2) {
          failures += 1;
          throw new Error('connection reset');
        }
      },
    };
    const { position } = await t.eventStore.append(
      farmerStream('flaky'),
      [farmerRegistered('flaky', '2026-03-03T10:00:00.000Z')],
      'no_stream',
    );
    const projector = await startProjector({ ...t, projections: [flaky] });
    await caughtUp(projector, ['flaky'], position);
    await projector.stop();
    expect(failures).toBe(2);
    expect(await readCheckpoint(t.db, 'flaky')).toEqual(position);
  });

  it('stops only after the batch in flight is committed, and then applies nothing more', async () => {
    const gated = gatedProjection('gated-stop');
    const { position } = await t.eventStore.append(
      farmerStream('stop'),
      [farmerRegistered('stop', '2026-03-04T10:00:00.000Z')],
      'no_stream',
    );
    const projector = await startProjector({ ...t, projections: [gated], batchSize: 1000 });
    await gated.entered;
    let stopped = false;
    const stopping = projector.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stopped).toBe(false);
    gated.open();
    await stopping;

    expect(await readCheckpoint(t.db, 'gated-stop')).toEqual(position);
    const appliedAtStop = gated.applied.length;
    await t.eventStore.append(
      farmerStream('after-stop'),
      [farmerRegistered('after-stop', '2026-03-04T11:00:00.000Z')],
      'no_stream',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gated.applied.length).toBe(appliedAtStop);
    expect(await readCheckpoint(t.db, 'gated-stop')).toEqual(position);
  });
});

describe('projector lag metrics', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_lag');
  });
  afterAll(() => t?.close());

  it('reports events and seconds behind per projection, and zero once caught up', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const events = ['l1', 'l2', 'l3'].map((id) =>
      newEvent('FarmerRegistered', farmerRegistered(id, hourAgo).data, hourAgo),
    );
    for (const [index, event] of events.entries())
      await t.eventStore.append(farmerStream(`l${index + 1}`), [event], 'no_stream');
    const head = (await readWholeLog(t.eventStore, events.length)).at(-1)!.position;

    const registry = new Registry();
    const gated = gatedProjection('gated-lag');
    const projector = await startProjector({ ...t, projections: [gated], metricsRegistry: registry, batchSize: 1 });
    await gated.entered;
    expect(await gaugeValue(registry, LAG_EVENTS_METRIC, 'gated-lag')).toBe(3);
    const secondsBehind = await gaugeValue(registry, LAG_SECONDS_METRIC, 'gated-lag');
    expect(secondsBehind).toBeGreaterThanOrEqual(3600);
    expect(secondsBehind).toBeLessThan(3660);

    gated.open();
    await caughtUp(projector, ['gated-lag'], head);
    expect(await gaugeValue(registry, LAG_EVENTS_METRIC, 'gated-lag')).toBe(0);
    expect(await gaugeValue(registry, LAG_SECONDS_METRIC, 'gated-lag')).toBe(0);
    await projector.stop();
    expect(registry.getSingleMetric(LAG_EVENTS_METRIC)).toBeUndefined();
  });

  it('with gatherMs, applies what was appended during the pause after a batch in one transaction', async () => {
    const batches: number[] = [];
    const counting: Projection = {
      name: 'batch-counter',
      tables: [],
      apply: async (_trx, events) => {
        batches.push(events.length);
      },
    };
    const projector = await startProjector({ ...t, projections: [counting], gatherMs: 500 });
    const appendFarmer = (id: string) =>
      t.eventStore.append(farmerStream(id), [farmerRegistered(id, '2026-03-01T10:00:00.000Z')], 'no_stream');
    await caughtUp(projector, ['batch-counter'], (await appendFarmer('gather-0')).position);
    const before = batches.length;
    // Appended one after another, each committed before the next, well inside the pause.
    let last: GlobalPosition | undefined;
    for (let index = 1; index <= 5; index += 1) last = (await appendFarmer(`gather-${index}`)).position;
    await caughtUp(projector, ['batch-counter'], last!);
    await projector.stop();
    expect(batches.slice(before)).toEqual([5]);
  });
});
