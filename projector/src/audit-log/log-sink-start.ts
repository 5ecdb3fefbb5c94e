import { join } from 'node:path';
import { loadAuditLogId, loadCheckpoint, type ReadModels } from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { NoteSigner } from '@cropcover/verifiable-log';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { startAuditIntegrator } from './audit-integrator';
import { claimCheckpointSinkDirectory, directoryCheckpointSink } from './checkpoint-sink';
import { checkpointSinkHealth } from './checkpoint-sink-health';

/** The origin line of the log's checkpoints: the signing key's name, then the log's id (issue 32). */
export const checkpointOrigin = (keyName: string, logId: string): string => `${keyName}/${logId}`;

export interface AuditLogOptions {
  readonly pool: pg.Pool;
  readonly db: Kysely<ReadModels>;
  readonly signer: NoteSigner;
  /** AUDIT_CHECKPOINT_DIR, when set; else the log's own directory under DATA_DIR. */
  readonly configuredSink: string | undefined;
  readonly dataDir: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metricsRegistry?: Registry;
}

/** Starts the integrator of this database's log (SPEC §10, the audit trail's own faults): checkpoints carry
 *  the log's id in their origin and go to the log's own sink, `<DATA_DIR>/audit-checkpoints/<log id>`
 *  unless AUDIT_CHECKPOINT_DIR names one; a sink holding another log's checkpoints is a ConfigError here,
 *  before anything is published. */
export const startAuditLog = async (options: AuditLogOptions): Promise<{ stop(): Promise<void> }> => {
  const { pool, db, signer, configuredSink, clock, logger } = options;
  const logId = await loadAuditLogId(db);
  const directory = configuredSink ?? join(options.dataDir, 'audit-checkpoints', logId);
  await claimCheckpointSinkDirectory({
    directory,
    logId,
    configured: configuredSink !== undefined,
    signedNote: async (size) => (await loadCheckpoint(db, size))?.note,
  });
  const origin = checkpointOrigin(signer.name, logId);
  logger.info({ origin, sink: directory }, `the audit log ${origin} publishes its checkpoints to ${directory}`);
  return startAuditIntegrator({
    pool,
    signer,
    origin,
    sink: directoryCheckpointSink(directory),
    sinkHealth: checkpointSinkHealth({
      pool,
      clock,
      sinkName: directory,
      logger,
      ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
    }),
    clock,
    logger,
  });
};
