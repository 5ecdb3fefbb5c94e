import { writeFile } from 'node:fs/promises';
import type { RecordedEvent } from '@cropcover/eventstore';
import { createLogger, createPool, endPool } from '@cropcover/runtime';
import type pg from 'pg';
import { expect } from 'vitest';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { type FaultWindow, faultReport } from './fault-report';
import { insuranceWorkload, insurer, type Told, type Workload } from './insurance-workload';
import { auditChainBreaks, consumersBehind, lostAndDoubled, webhookFindings, wholeLog } from './log-invariants';
import type { PostgresCluster } from './postgres-cluster';
import { type ServiceTopology, startTopology } from './service-topology';

// What every fault file of the suite stands on: the production topology on a database of a cluster of
// the suite's own, a webhook receiver subscribed to breaches, and `underLoad`, which runs the workload
// across a fault and then checks every invariant from outside (docs/reliability.md's table).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CLIENTS = 3;
const STEADY = '/hooks/steady';

export interface StruckTopology {
  readonly topology: ServiceTopology;
  /** A pool on the service's database, for the checks. */
  readonly pool: pg.Pool;
  /** The receiver the breaches are delivered to; a scenario may subscribe more of its paths. */
  readonly receiver: WebhookReceiver;
  /** Runs the workload across `inject`, then checks every invariant and prints the scenario's figures. */
  underLoad(
    scenario: string,
    inject: () => Promise<FaultWindow>,
    /** Where the clients send each request; the topology's API processes unless a scenario adds its own. */
    urlOf?: (role: 'commandApi' | 'queryApi') => string,
  ): Promise<StruckFigures>;
  stop(): Promise<void>;
}

const figuresOf = (
  scenario: string,
  report: ReturnType<typeof faultReport>,
  writes: ReturnType<typeof lostAndDoubled>,
  webhooks: ReturnType<typeof webhookFindings>,
  behindWhenLoadStopped: string[],
  consumersCaughtUpWithinMs: number,
) => ({
  scenario,
  ...report,
  stalled: report.stalled.length,
  acknowledged: writes.acknowledged,
  lost: writes.lost.length,
  doubled: writes.doubled.length,
  breaches: webhooks.breaches,
  webhooksMissing: webhooks.missing.length,
  webhooksDoubled: webhooks.doubled.length,
  behindWhenLoadStopped,
  consumersCaughtUpWithinMs,
});

/** A scenario's figures, with what its clients were told and the log as it stood, for its own checks. */
export type StruckFigures = ReturnType<typeof figuresOf> & { readonly told: Told; readonly log: RecordedEvent[] };

/** The topology on a new database `cropcover` of `cluster`, with `env` over the suite's environment. */
export const startStruckTopology = async (
  cluster: PostgresCluster,
  env: Record<string, string> = {},
): Promise<StruckTopology> => {
  const admin = createPool(cluster.url(), createLogger({ level: 'silent' }), { max: 1 });
  await admin.query('create database cropcover');
  await endPool(admin);
  const topology = await startTopology(cluster.url('cropcover'), env);
  const pool = createPool(cluster.url('cropcover'), createLogger({ level: 'silent' }), { max: 2 });
  const receiver: WebhookReceiver = await startWebhookReceiver();
  const subscribed = await insuranceWorkload(topology.urlOf, 'setup').send(
    'commandApi',
    'POST',
    '/insurance/webhooks/trigger-events',
    insurer,
    { body: { url: receiver.url(STEADY) }, key: 'subscribe-steady' },
  );
  expect(subscribed?.status).toBe(201);

  const underLoad = async (
    scenario: string,
    inject: () => Promise<FaultWindow>,
    urlOf: (role: 'commandApi' | 'queryApi') => string = topology.urlOf,
  ) => {
    const workload: Workload = insuranceWorkload(urlOf, scenario);
    const clients = workload.run(CLIENTS);
    let window: FaultWindow;
    try {
      await sleep(4_000);
      window = await inject();
      await sleep(6_000);
    } finally {
      await clients.stop();
    }
    const report = faultReport(workload.told, window);
    const resumeFrom = performance.now();
    const log = await wholeLog(pool);
    const head = log.at(-1)!.position;
    const behindWhenLoadStopped = await consumersBehind(pool, head, log.length);
    await eventually(async () => (await consumersBehind(pool, head, log.length)).length === 0, 60_000).catch(
      () => undefined,
    );
    const resumedAfterMs = Math.round(performance.now() - resumeFrom);
    await eventually(() => webhookFindings(log, receiver, [STEADY]).missing.length === 0, 60_000).catch(
      () => undefined,
    );
    const writes = lostAndDoubled(log, workload.told);
    const webhooks = webhookFindings(log, receiver, [STEADY]);
    const figures = figuresOf(scenario, report, writes, webhooks, behindWhenLoadStopped, resumedAfterMs);
    console.info(`reliability: ${JSON.stringify(figures)}`);
    if (process.env.FAULTS_OUTPUT)
      await writeFile(
        process.env.FAULTS_OUTPUT,
        `${JSON.stringify({ writes, behind: await consumersBehind(pool, head, log.length), missing: webhooks.missing })}\n${topology.output()}`,
      );
    expect(workload.told.unanswered).toEqual([]);
    expect(workload.told.payouts.length).toBeGreaterThan(0);
    expect(report.stalled).toEqual([]);
    expect(report.notRetryable).toEqual([]);
    expect(writes.lost).toEqual([]);
    expect(writes.doubled).toEqual([]);
    expect(await consumersBehind(pool, head, log.length)).toEqual([]);
    expect(await auditChainBreaks(pool, log, topology.urlOf('queryApi'))).toEqual([]);
    expect(webhooks.missing).toEqual([]);
    expect(webhooks.strangers).toEqual([]);
    // A dispatcher that keeps running sends each delivery once, also across a fault: one whose outcome
    // could not be recorded is recorded before anything is claimed again (docs/reliability.md).
    expect(webhooks.doubled).toEqual([]);
    return { ...figures, told: workload.told, log };
  };

  return {
    topology,
    pool,
    receiver,
    underLoad,
    stop: async () => {
      await topology.stop();
      await endPool(pool);
      await receiver.close();
    },
  };
};
