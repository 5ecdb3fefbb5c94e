import { type GlobalPosition, isAtOrAfter } from '@cropcover/eventstore';
import { readModelProjections, rebuildProjections } from '@cropcover/projector';
import {
  combinedExpectation,
  dumpReadModels,
  openProjectorTestDatabase,
  type ProjectorTestDatabase,
  readWholeLog,
  registryWorkload,
  seededRandom,
} from '@cropcover/projector/testing';
import { readCheckpoint } from '@cropcover/read-store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ProjectorProcess, startProjectorProcess } from './projector-process';

const KILLS = 6;
const WRITERS = 3;
const projectionNames = readModelProjections.map((projection) => projection.name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('projector killed at random moments', () => {
  let t: ProjectorTestDatabase;
  let running: ProjectorProcess | undefined;
  let appending = false;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_crash');
  });
  afterAll(async () => {
    appending = false;
    await running?.signal('SIGKILL');
    await t?.close();
  });

  const checkpoints = () => Promise.all(projectionNames.map((name) => readCheckpoint(t.db, name)));

  const caughtUpWith = async (head: GlobalPosition) => {
    for (const name of projectionNames) if (!isAtOrAfter(await readCheckpoint(t.db, name), head)) return false;
    return true;
  };

  it('ends with every event applied exactly once, the same rows a rebuild produces', { timeout: 240_000 }, async () => {
    const seed = Date.now() % 1_000_000;
    const random = seededRandom(seed);
    const workloads = Array.from({ length: WRITERS }, (_, writer) =>
      registryWorkload(t.eventStore, `w${writer}`, seededRandom(seed + writer + 1)),
    );
    appending = true;
    const writers = workloads.map(async (workload) => {
      while (appending) await workload.step();
    });

    for (let kill = 0; kill < KILLS; kill += 1) {
      const before = await checkpoints();
      running = startProjectorProcess(t.url);
      if (kill % 2 === 0) {
        // Any moment: starting up (npx, tsx and migrations take 1–3 s), catching up, or idle.
        await sleep(500 + random() * 3500);
      } else {
        // Surely while it works: right after it committed a batch, likely inside the next one.
        await vi.waitFor(async () => expect(await checkpoints()).not.toEqual(before), {
          timeout: 30_000,
          interval: 20,
        });
        await sleep(random() * 300);
      }
      await running.signal('SIGKILL');
      running = undefined;
    }
    appending = false;
    await Promise.all(writers);
    const appended = workloads.reduce((sum, workload) => sum + workload.appendedEvents(), 0);
    const head = (await readWholeLog(t.eventStore, appended)).at(-1)!.position;
    running = startProjectorProcess(t.url);
    await vi.waitFor(async () => expect(await caughtUpWith(head)).toBe(true), { timeout: 60_000, interval: 200 });
    const last = running;
    running = undefined;
    await last.signal('SIGTERM');
    expect(last.output()).toMatch(/"msg":"stopped"/);

    const live = await dumpReadModels(t.db);
    const expected = combinedExpectation(workloads);
    console.info(`crash test (seed ${seed}): ${appended} events appended across ${KILLS} kills`);
    expect(live.farmers).toEqual(expected.farmers);
    expect(live.farms).toEqual(expected.farms);
    expect(live.farm_fields).toEqual(expected.farm_fields);
    expect(live.farm_organizations).toEqual(expected.farm_organizations);

    const rebuild = await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: readModelProjections });
    expect(rebuild.events).toBe(appended);
    expect(await dumpReadModels(t.db)).toEqual(live);
  });
});
