import { farmerStream, farmStream } from '@cropcover/domain';
import type { GlobalPosition } from '@cropcover/eventstore';
import {
  createReadModelConsistency,
  LISTENER_APPLICATION_NAME,
  type ProgressSource,
  type ProjectionProgress,
  type ReadModelConsistency,
} from '@cropcover/read-store';
import { createLogger, createPool } from '@cropcover/runtime';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Projector, startProjector } from './projector';
import { readModelProjections } from './read-model-projections';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from './testing';
import { farmerRegistered, farmRegistered } from './testing/registry-events';

const projectionNames = readModelProjections.map((projection) => projection.name);

describe('read-your-writes', () => {
  let t: ProjectorTestDatabase;
  // The waiting side has its own pool, as the query API in another process would.
  let consumerPool: pg.Pool;
  let consistency: ReadModelConsistency | undefined;
  let projector: Projector | undefined;
  let farmerCount = 0;

  const appendFarmer = async () => {
    farmerCount += 1;
    const id = `ryw-${farmerCount}`;
    return t.eventStore.append(farmerStream(id), [farmerRegistered(id, '2026-03-01T10:00:00.000Z')], 'no_stream');
  };

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_ryw');
    consumerPool = createPool(t.url, t.logger, { max: 4 });
  });
  afterEach(async () => {
    await consistency?.close();
    await projector?.stop();
    consistency = undefined;
    projector = undefined;
  });
  afterAll(async () => {
    await consumerPool?.end();
    await t?.close();
  });

  it('resolves true once the projector has caught up with the write, and the write is then readable', async () => {
    consistency = createReadModelConsistency({
      pool: consumerPool,
      projectionNames,
      logger: t.logger,
      pollIntervalMs: 60_000,
    });
    projector = await startProjector({ ...t, projections: readModelProjections });
    const { position } = await t.eventStore.append(
      farmStream('ryw-farm'),
      [farmRegistered('ryw-farm', 'ryw-owner', '2026-03-01T10:00:00.000Z')],
      'no_stream',
    );
    const started = Date.now();
    expect(await consistency.waitFor(position, 5000)).toBe(true);
    // Woken by the notification: the poll is set far beyond the test's duration.
    expect(Date.now() - started).toBeLessThan(2000);
    const farm = await consumerPool.query('select farm_id from farms where farm_id = $1', ['ryw-farm']);
    expect(farm.rows).toEqual([{ farm_id: 'ryw-farm' }]);
  });

  it('resolves false after the timeout while the projector is stopped, and true once it runs again', async () => {
    consistency = createReadModelConsistency({ pool: consumerPool, projectionNames, logger: t.logger });
    const { position } = await appendFarmer();
    const started = Date.now();
    expect(await consistency.waitFor(position, 300)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    const waiting = consistency.waitFor(position, 10_000);
    projector = await startProjector({ ...t, projections: readModelProjections });
    expect(await waiting).toBe(true);
  });

  it('serves many waiters with one listener and at most one checkpoint query at a time', async () => {
    consistency = createReadModelConsistency({
      pool: consumerPool,
      projectionNames,
      logger: t.logger,
      pollIntervalMs: 20,
    });
    const positions: GlobalPosition[] = [];
    for (let i = 0; i < 20; i += 1) positions.push((await appendFarmer()).position);
    const waits = Array.from({ length: 500 }, (_, i) => consistency!.waitFor(positions[i % positions.length]!, 10_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    projector = await startProjector({ ...t, projections: readModelProjections });
    expect(await Promise.all(waits)).toEqual(waits.map(() => true));
    expect(consumerPool.totalCount).toBeLessThanOrEqual(1);
    const listeners = await t.pool.query(
      'select count(*)::int as count from pg_stat_activity where application_name = $1 and datname = current_database()',
      [LISTENER_APPLICATION_NAME],
    );
    expect(listeners.rows[0].count).toBe(1);
  });

  const listenerBackends = () =>
    t.pool.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
      [LISTENER_APPLICATION_NAME],
    );

  /** Ends the consistency's LISTEN connection from the server side, as a network failure would. */
  const killListener = async (): Promise<number> => {
    await vi.waitFor(async () => expect((await listenerBackends()).rows).toHaveLength(1));
    const [listener] = (await listenerBackends()).rows;
    await t.pool.query('select pg_terminate_backend($1)', [listener!.pid]);
    return listener!.pid;
  };

  it('falls back to polling the checkpoints while the listener connection is lost', async () => {
    consistency = createReadModelConsistency({
      pool: consumerPool,
      projectionNames,
      logger: t.logger,
      pollIntervalMs: 100,
      reconnectDelayMs: 60_000,
    });
    projector = await startProjector({ ...t, projections: readModelProjections });
    await killListener();
    await vi.waitFor(async () => expect((await listenerBackends()).rows).toHaveLength(0));

    const { position } = await appendFarmer();
    expect(await consistency.waitFor(position, 5000)).toBe(true);
  });

  it('listens again after the listener connection was lost', async () => {
    consistency = createReadModelConsistency({
      pool: consumerPool,
      projectionNames,
      logger: t.logger,
      pollIntervalMs: 60_000,
      reconnectDelayMs: 100,
    });
    projector = await startProjector({ ...t, projections: readModelProjections });
    const killed = await killListener();
    await vi.waitFor(async () => {
      const { rows } = await listenerBackends();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.pid).not.toBe(killed);
    });

    const { position } = await appendFarmer();
    expect(await consistency.waitFor(position, 5000)).toBe(true);
  });

  it('is woken by the projector of its own process without asking the database', async () => {
    const listeners = new Set<(progress: ProjectionProgress) => void>();
    const localProgress: ProgressSource = {
      onAdvanced: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const unreachable = createPool('postgres://postgres@127.0.0.1:1/none', createLogger({ level: 'silent' }));
    consistency = createReadModelConsistency({
      pool: unreachable,
      projectionNames,
      logger: t.logger,
      localProgress,
      pollIntervalMs: 60_000,
      reconnectDelayMs: 60_000,
    });
    const position = { commit: 10n, prepare: 20n };
    const waiting = consistency.waitFor(position, 5000);
    for (const listener of listeners) listener({ name: 'farmers', position });
    expect(await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('pending'), 100))])).toBe(
      'pending',
    );
    for (const name of projectionNames.filter((other) => other !== 'farmers')) {
      for (const listener of listeners) listener({ name, position: { commit: 11n, prepare: 1n } });
    }
    expect(await waiting).toBe(true);
    await consistency.close();
    consistency = undefined;
    expect(listeners.size).toBe(0);
    await unreachable.end();
  });

  it('resolves pending waits false when closed', async () => {
    consistency = createReadModelConsistency({ pool: consumerPool, projectionNames, logger: t.logger });
    const waiting = consistency.waitFor({ commit: 2n ** 62n, prepare: 0n }, 10_000);
    await consistency.close();
    consistency = undefined;
    expect(await waiting).toBe(false);
  });
});
