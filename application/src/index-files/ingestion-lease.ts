import { randomUUID } from 'node:crypto';
import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

// An ingestion runs under a lease of the process running it, renewed while it runs, on the database's
// clock (every process compares against the same one). When the process stops or dies mid-file, its
// transaction is rolled back and the lease runs out: another pass takes the ingestion up from the kept file.

/** This process, as the holder of the leases it takes. */
export const PROCESS_LEASE_ID = randomUUID();

/** Long enough for a stalled event loop, short enough that a restart resumes within half a minute. */
export const INGESTION_LEASE_MS = 30_000;

export const leaseEnd = () => sql<Date>`now() + ${`${INGESTION_LEASE_MS} milliseconds`}::interval`;

/** Renews the ingestion's lease every third of it until stopped. A run that lost it (another process took
 *  the ingestion up) finds out when it records its end, which then matches no row and rolls back. */
export const renewedLease = (db: Kysely<ReadModels>, ingestionId: string): { stop(): void } => {
  const timer = setInterval(() => {
    db.updateTable('index_file_ingestions')
      .set({ leased_until: leaseEnd() })
      .where('ingestion_id', '=', ingestionId)
      .where('lease_id', '=', PROCESS_LEASE_ID)
      .execute()
      .catch(() => undefined);
  }, INGESTION_LEASE_MS / 3);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
