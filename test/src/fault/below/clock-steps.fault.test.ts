import { describeNeeding } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type RunningService } from '../../support/service-process';
import { eventually } from '../../support/webhook-receiver';
import { daysAhead, payoutsChanged } from './clock-invariants';
import { insuranceWorkload, insurer, STALLED_AFTER_MS } from './insurance-workload';
import { watchLeases } from './lease-watch';
import { webhookFindings } from './log-invariants';
import { whyFaultsCannotRun } from './network-namespace';
import { createPrimaryCluster, type PostgresCluster } from './postgres-cluster';
import { createSteppedClock, type SteppedClock, whyClocksCannotStep } from './stepped-clock';
import { type StruckTopology, startStruckTopology } from './struck-topology';

// SPEC §10 "Clocks": under the workload, one process's wall clock is stepped back an hour, then forward a
// day, then back to real time, while every other process keeps real time: a second monitor beside the
// topology's, then a second webhook dispatcher beside its, then a second command API that takes every
// other write. Leases are contested between processes of one role, so the stepped process is always one
// of two. After the clock returns, every invariant of the suite holds, no lease was taken while another
// process held it (watched on the database's clock), no day was evaluated before it began, every payout
// is what the readings give, and the stepped process answered its health checks throughout.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than a monitor's pause between passes (60 s): a pass starts while its clock is a day ahead. */
const MONITOR_DAY_AHEAD_MS = 65_000;
const STEP_MS = 15_000;
/** A receiver that takes its time: each delivery to it stays leased long enough for the lease watch to
 *  see who holds it (a quick one is sent and settled between two samples). */
const SLOW = '/hooks/slow';
const SLOW_ANSWER = { status: 200, delayMs: 250 };

let cluster: PostgresCluster;
let struck: StruckTopology;
const clocks: SteppedClock[] = [];
const stepped: RunningService[] = [];

const countOf = (values: readonly string[]) =>
  values.reduce<Record<string, number>>((counts, value) => {
    counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  }, {});

/** Health checks of `service` every 0.5 s until `stop()`: any that failed, the slowest, and how far the
 *  process's clock was from this one's, by the `Date` header it answered with (Node sets it from its
 *  wall clock): the proof that the step reached the process. */
const probeWhile = (service: RunningService) => {
  const failed: string[] = [];
  const offsetsS: number[] = [];
  let slowestMs = 0;
  let probing = true;
  const loop = (async () => {
    while (probing) {
      const from = performance.now();
      const answer = await fetch(`${service.baseUrl}/healthz`, { signal: AbortSignal.timeout(STALLED_AFTER_MS) })
        .then((response) => {
          const date = response.headers.get('date');
          if (date) offsetsS.push(Math.round((Date.parse(date) - Date.now()) / 1000));
          return response.status;
        })
        .catch((error: Error) => error.name);
      slowestMs = Math.max(slowestMs, performance.now() - from);
      if (answer !== 200) failed.push(String(answer));
      await sleep(500);
    }
  })();
  return {
    stop: async () => {
      probing = false;
      await loop;
      return {
        failed,
        slowestMs: Math.round(slowestMs),
        behindS: -Math.min(0, ...offsetsS),
        aheadS: Math.max(0, ...offsetsS),
      };
    },
  };
};

/** Runs the workload while `role`'s second process has its clock stepped back an hour for `backMs`, then
 *  forward a day for `aheadMs`, then returned; checks everything a stepped clock must not change. */
const stepUnderLoad = async (role: 'monitor' | 'dispatcher' | 'commandApi', backMs: number, aheadMs: number) => {
  const clock = await createSteppedClock();
  clocks.push(clock);
  if (role === 'dispatcher') {
    struck.receiver.script(
      SLOW,
      Array.from({ length: 20_000 }, () => SLOW_ANSWER),
    );
    const subscribed = await insuranceWorkload(struck.topology.urlOf, 'slow').send(
      'commandApi',
      'POST',
      '/insurance/webhooks/trigger-events',
      insurer,
      { body: { url: struck.receiver.url(SLOW) }, key: 'subscribe-slow' },
    );
    expect(subscribed?.status).toBe(201);
  }
  const service = await struck.topology.startBeside(role, `${role}-stepped`, clock.env);
  stepped.push(service);
  let twice: string[] = [];
  let health = { failed: [] as string[], slowestMs: 0, behindS: 0, aheadS: 0 };
  // A command API stepped serves every other request: a keyed write's retry may land on either process.
  let turn = 0;
  const urlOf = (api: 'commandApi' | 'queryApi') =>
    role === 'commandApi' && api === 'commandApi' && turn++ % 2 === 1 ? service.baseUrl : struck.topology.urlOf(api);
  const figures = await struck.underLoad(
    `clock-steps-${role}`,
    async () => {
      const leases = watchLeases(struck.pool);
      const probe = probeWhile(service);
      const from = performance.now();
      await clock.step('-1h');
      await sleep(backMs);
      await clock.step('+1d');
      await sleep(aheadMs);
      await clock.step('+0');
      const to = performance.now();
      twice = await leases.stop();
      // Said at once: the suite's invariants, checked next, may fail first.
      console.info(
        `reliability: clock-steps-${role} leases taken while held: ${JSON.stringify(twice.slice(0, 5))} (${twice.length})`,
      );
      health = await probe.stop();
      return { from, to };
    },
    urlOf,
  );
  let slow = { missing: [] as string[], doubled: [] as string[] };
  if (role === 'dispatcher') {
    await eventually(() => webhookFindings(figures.log, struck.receiver, [SLOW]).missing.length === 0, 90_000).catch(
      () => undefined,
    );
    slow = webhookFindings(figures.log, struck.receiver, [SLOW]);
  }
  // A clock off by a day is no reason to refuse a client: the workload's requests are all valid, so any
  // 4xx but a 409 (a keyed request still in flight, which the client retries) was the clock's doing.
  const refusedByClock = figures.told.answers
    .filter(
      (answer) =>
        typeof answer.status === 'number' && answer.status >= 400 && answer.status < 500 && answer.status !== 409,
    )
    .map((answer) => `${answer.what.replace(/[0-9a-f-]{36}/g, ':id')} ${answer.status} ${answer.code}`);
  const ahead = await daysAhead(struck.pool, figures.log);
  const changed = payoutsChanged(figures.log, figures.told);
  console.info(
    `reliability: clock-steps-${role} ${JSON.stringify({ refusedByClock: countOf(refusedByClock), leasesHeldTwice: twice.length, slowMissing: slow.missing.length, slowDoubled: slow.doubled.length, daysAhead: ahead.length, payoutsChanged: changed.length, health })}`,
  );
  // The step struck: the process's own clock was an hour behind, then a day ahead.
  expect(health.behindS).toBeGreaterThan(3_500);
  expect(health.aheadS).toBeGreaterThan(86_000);
  expect(refusedByClock).toEqual([]);
  expect(twice).toEqual([]);
  expect(slow.doubled).toEqual([]);
  expect(slow.missing).toEqual([]);
  expect(ahead).toEqual([]);
  expect(changed).toEqual([]);
  expect(health.failed).toEqual([]);
  return figures;
};

describeNeeding(
  'A clock stepped on one process under load (SPEC §10)',
  (await whyFaultsCannotRun()) ?? (await whyClocksCannotStep()),
  () => {
    beforeAll(async () => {
      cluster = await createPrimaryCluster(await freePort());
      struck = await startStruckTopology(cluster);
    });

    afterAll(async () => {
      // The stepped processes first, by SIGKILL: a process whose clock is off has nothing to finish.
      for (const service of stepped) await service.kill().catch(() => undefined);
      await struck?.stop();
      await cluster?.remove();
      for (const clock of clocks) await clock.remove();
    });

    it('a second monitor stepped back an hour, then forward a day: no lease held twice, no day ahead, no payout changed', async () => {
      await stepUnderLoad('monitor', 10_000, MONITOR_DAY_AHEAD_MS);
    });

    it('a second webhook dispatcher stepped back an hour, then forward a day: no delivery doubled, no lease held twice', async () => {
      await stepUnderLoad('dispatcher', STEP_MS, STEP_MS);
    });

    it('a second command API stepped back an hour, then forward a day: no request refused for it, nothing doubled, no evaluation ahead of its day', async () => {
      await stepUnderLoad('commandApi', STEP_MS, STEP_MS);
    });
  },
);
