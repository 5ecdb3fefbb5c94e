import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type pg from 'pg';
import type { NewEvent } from '../src/index';

// The append workload every event store bench runs: single-event appends of a ~400-byte TriggerEvaluated
// event with full metadata, each writer cycling over streams of its own with the exact expected revision.

export const STREAMS_PER_WRITER = 20;

export const policyEvent = (writer: number, i: number): NewEvent => {
  const id = randomUUID();
  return {
    type: 'TriggerEvaluated',
    data: {
      policyId: `PL-${writer}-${i % STREAMS_PER_WRITER}`,
      peril: 'drought',
      window: { from: '2025-04-01', to: '2025-09-30' },
      index: { kind: 'rainfall_mm', observed: 212.4 + (i % 17), threshold: 180, exit: 120 },
      breached: false,
    },
    metadata: {
      event_id: id,
      occurred_at: new Date().toISOString(),
      actor: 'bench',
      organization_id: 'org-bench',
      correlation_id: randomUUID(),
      causation_id: null,
      schema_version: 1,
      platform_version: '0.1.0',
    },
  };
};

/** Appends one event to the stream and returns the revision to expect next; `undefined` = the stream is new. */
export type AppendOne = (streamId: string, event: NewEvent, expected: number | undefined) => Promise<number>;

/** `writers` concurrent writers share `appends` single-event appends, each over STREAMS_PER_WRITER streams of
 *  its own named after `label`. Returns the duration of every append in ms. */
export const runWriters = async (
  appendOne: AppendOne,
  label: string,
  writers: number,
  appends: number,
): Promise<number[]> => {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      const revisions = new Map<string, number>();
      for (let i = 0; i < appends / writers; i++) {
        const stream = `policy-${label}-${writer}-${i % STREAMS_PER_WRITER}`;
        const started = performance.now();
        revisions.set(stream, await appendOne(stream, policyEvent(writer, i), revisions.get(stream)));
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
};

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

export const median = (values: readonly number[]): number => percentile(values, 50);

export const loadAverage = (): string =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

// CPU per event says what each case costs whatever else runs on the machine, which rates alone cannot.
// PostgreSQL's part is read from /proc for the backends of the case's connections: only for a local server.
const CLOCK_TICK_MS = 10;

/** CPU time so far of the server backends whose connections carry `applicationName`. */
export const backendCpuMs = async (admin: pg.Client, applicationName: string): Promise<number> => {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
    applicationName,
  ]);
  let ticks = 0;
  for (const { pid } of rows) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * CLOCK_TICK_MS;
};

export const nodeCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
