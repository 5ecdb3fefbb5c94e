import type { Clock, Logger } from '@cropcover/runtime';
import type pg from 'pg';
import { Counter, Gauge, type Registry } from 'prom-client';

// A checkpoint sink that fails is loud (SPEC §10): the reason in the log, a metric, and a row every
// process's `/readyz` reads (checkpointSinkReadinessCheck). Payouts go on being decided and recorded; only
// breach webhooks wait, for a checkpoint the sink took.

export const SINK_FAILING_METRIC = 'cropcover_audit_checkpoint_sink_failing';
export const SINK_FAILURES_METRIC = 'cropcover_audit_checkpoint_sink_failures_total';

export interface CheckpointSinkHealth {
  failed(error: unknown): Promise<void>;
  succeeded(): Promise<void>;
}

const MARK_FAILING = `insert into audit_checkpoint_sink_status (failing_since, reason, checked_at) values ($1, $2, $1)
  on conflict (singleton) do update set reason = excluded.reason, checked_at = excluded.checked_at,
    failing_since = coalesce(audit_checkpoint_sink_status.failing_since, excluded.failing_since)`;
const MARK_HEALTHY = `insert into audit_checkpoint_sink_status (failing_since, reason, checked_at) values (null, null, $1)
  on conflict (singleton) do update set failing_since = null, reason = null, checked_at = excluded.checked_at`;

export const checkpointSinkHealth = (options: {
  readonly pool: pg.Pool;
  readonly clock: Clock;
  readonly sinkName: string;
  readonly logger?: Logger;
  readonly metricsRegistry?: Registry;
}): CheckpointSinkHealth => {
  const { pool, clock, sinkName, logger } = options;
  const registers = options.metricsRegistry ? [options.metricsRegistry] : [];
  const failing = new Gauge({
    name: SINK_FAILING_METRIC,
    help: 'Whether the audit checkpoint sink refused the last checkpoint offered to it (1) or took it (0)',
    registers,
  });
  const failures = new Counter({
    name: SINK_FAILURES_METRIC,
    help: 'Checkpoints the audit checkpoint sink refused, with each retry',
    registers,
  });
  // Unknown at start: the first outcome is written either way, so a row a crashed process left failing
  // is cleared by the next one that publishes.
  let lastReason: string | null | undefined;
  return {
    failed: async (error) => {
      const reason = error instanceof Error ? error.message : String(error);
      failing.set(1);
      failures.inc();
      if (reason === lastReason) return;
      logger?.error(
        { sink: sinkName, reason },
        `the audit checkpoint sink refuses checkpoints: ${reason}; breach webhooks wait until it takes one`,
      );
      await pool.query(MARK_FAILING, [clock.now(), reason]);
      lastReason = reason;
    },
    succeeded: async () => {
      failing.set(0);
      if (lastReason === null) return;
      if (lastReason !== undefined)
        logger?.info({ sink: sinkName }, 'the audit checkpoint sink takes checkpoints again');
      await pool.query(MARK_HEALTHY, [clock.now()]);
      lastReason = null;
    },
  };
};
