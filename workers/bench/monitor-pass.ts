import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { Clock, Logger } from '@cropcover/runtime';
import type { PolicyMonitorDeps } from '../src/monitor/monitor-deps';
import { createMonitorMetrics } from '../src/monitor/monitor-metrics';
import { type MonitorTick, runMonitorTick } from '../src/monitor/monitor-tick';

// One pass of the policy monitor as production runs it (`runMonitorTick`: claims the due policies, reads
// their series, evaluates, appends, keeps its rounds and snapshots), timed. Shared by the monitor benches
// (workers/bench/monitor-portfolio.ts, test/bench/term-sheets.ts), which seed the policies their own way.

export interface MonitorPassOptions {
  readonly deps: PolicyMonitorDeps;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Policies worked on at once; the monitor's default when absent. */
  readonly concurrency?: number;
  /** A file to write the pass's CPU profile of this process to. */
  readonly cpuProfile?: string;
}

export interface MonitorPass {
  readonly tick: MonitorTick;
  /** Policies evaluated, closed or failed. */
  readonly handled: number;
  readonly seconds: number;
  /** This process's CPU (user and system) during the pass. */
  readonly cpuMs: number;
}

const metrics = createMonitorMetrics();

export const timedMonitorPass = async ({
  deps,
  clock,
  logger,
  concurrency,
  cpuProfile,
}: MonitorPassOptions): Promise<MonitorPass> => {
  const profiler = cpuProfile === undefined ? undefined : new Session();
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const tick = await runMonitorTick({ deps, clock, logger, metrics, concurrency });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(cpuProfile!, JSON.stringify(profile));
    profiler.disconnect();
  }
  return { tick, handled: tick.evaluated + tick.closed + tick.failed, seconds, cpuMs: (cpu.user + cpu.system) / 1000 };
};
