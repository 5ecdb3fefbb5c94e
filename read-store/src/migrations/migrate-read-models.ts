import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { ReadModels } from '../read-models';
import { registryReadModels } from './0001-registry-read-models';
import { indexReadings } from './0002-index-readings';
import { policyReadModels } from './0003-policy-read-models';
import { idempotencyKeys } from './0004-idempotency-keys';
import { webhookTables } from './0005-webhooks';
import { webhookTargetPositions } from './0006-webhook-target-positions';
import { idempotencyKeyScope } from './0007-idempotency-key-scope';
import { readingsBySource } from './0008-readings-by-source';
import { indexSources } from './0009-index-sources';
import { evaluationCoverage } from './0010-evaluation-coverage';
import { payoutFinality } from './0011-payout-finality';
import { webhookDeliveryLeases } from './0012-webhook-delivery-leases';
import { policyMonitorRounds } from './0013-policy-monitor-rounds';
import { webhookDeliveryTraceContext } from './0014-webhook-delivery-trace-context';
import { indexReadingVersions } from './0015-index-reading-versions';
import { webhookBreachPositions } from './0016-webhook-breach-positions';
import { policySnapshots } from './0017-policy-snapshots';
import { termSheetPhases } from './0018-term-sheet-phases';
import { products } from './0019-products';
import { farmAccessGrants } from './0022-farm-access-grants';
import { assistedOnboarding } from './0023-assisted-onboarding';
import { farmerKeys } from './0025-farmer-keys';
import { auditLog } from './0026-audit-log';
import { webhookDeliveryAudit } from './0028-webhook-delivery-audit';
import { auditSigningKeys } from './0029-audit-signing-keys';
import { programmes } from './0030-programmes';
import { programmeExposure } from './0031-programme-exposure';
import { treaties } from './0032-treaties';
import { reinsuranceLedger } from './0033-reinsurance-ledger';
import { portfolioBacktests } from './0035-portfolio-backtests';
import { policyMonitorDays } from './0036-policy-monitor-days';
import { auditCheckpointDistribution } from './0038-audit-checkpoint-distribution';
import { policyMonitorDaysNarrow } from './0039-policy-monitor-days-narrow';
import { policyOwnerFarmer } from './0040-policy-owner-farmer';
import { auditLeafEnvelopes } from './0041-audit-leaf-envelopes';
import { auditLogIdentity } from './0042-audit-log-identity';
import { indexSourceDescriptors } from './0055-index-source-descriptors';
import { indexFiles } from './0056-index-files';
import { unitAreas } from './0065-unit-areas';
import { climatologies } from './0066-climatologies';
import { locationsOfInterest } from './0070-locations-of-interest';
import { indexFileIngestionLeases } from './0080-index-file-ingestion-leases';
import { policySnapshotOwner } from './0090-policy-snapshot-owner';
import { productBacktests } from './0091-product-backtests';

// In-code migrations, ordered by name. Their own bookkeeping tables keep them apart from other
// packages that may run a kysely Migrator against the same database.
/** Every read-model migration by name; numbers are handed out per issue, so they may land out of order. */
export const readModelMigrations: Record<string, Migration> = {
  '0001-registry-read-models': registryReadModels,
  '0002-index-readings': indexReadings,
  '0003-policy-read-models': policyReadModels,
  '0004-idempotency-keys': idempotencyKeys,
  '0005-webhooks': webhookTables,
  '0006-webhook-target-positions': webhookTargetPositions,
  '0007-idempotency-key-scope': idempotencyKeyScope,
  '0008-readings-by-source': readingsBySource,
  '0009-index-sources': indexSources,
  '0010-evaluation-coverage': evaluationCoverage,
  '0011-payout-finality': payoutFinality,
  '0012-webhook-delivery-leases': webhookDeliveryLeases,
  '0013-policy-monitor-rounds': policyMonitorRounds,
  '0014-webhook-delivery-trace-context': webhookDeliveryTraceContext,
  '0015-index-reading-versions': indexReadingVersions,
  '0016-webhook-breach-positions': webhookBreachPositions,
  '0017-policy-snapshots': policySnapshots,
  '0018-term-sheet-phases': termSheetPhases,
  '0019-products': products,
  '0022-farm-access-grants': farmAccessGrants,
  '0023-assisted-onboarding': assistedOnboarding,
  '0025-farmer-keys': farmerKeys,
  '0026-audit-log': auditLog,
  '0028-webhook-delivery-audit': webhookDeliveryAudit,
  '0029-audit-signing-keys': auditSigningKeys,
  '0030-programmes': programmes,
  '0031-programme-exposure': programmeExposure,
  '0032-treaties': treaties,
  '0033-reinsurance-ledger': reinsuranceLedger,
  '0035-portfolio-backtests': portfolioBacktests,
  '0036-policy-monitor-days': policyMonitorDays,
  '0038-audit-checkpoint-distribution': auditCheckpointDistribution,
  '0039-policy-monitor-days-narrow': policyMonitorDaysNarrow,
  '0040-policy-owner-farmer': policyOwnerFarmer,
  '0041-audit-leaf-envelopes': auditLeafEnvelopes,
  '0042-audit-log-identity': auditLogIdentity,
  '0055-index-source-descriptors': indexSourceDescriptors,
  '0056-index-files': indexFiles,
  '0065-unit-areas': unitAreas,
  '0066-climatologies': climatologies,
  '0070-locations-of-interest': locationsOfInterest,
  '0080-index-file-ingestion-leases': indexFileIngestionLeases,
  '0090-policy-snapshot-owner': policySnapshotOwner,
  '0091-product-backtests': productBacktests,
};

const provider: MigrationProvider = { getMigrations: async () => readModelMigrations };

/** Brings the read-model tables to the latest version; a no-op when they are current. Safe to run from
 *  several processes at once: kysely serialises migrators on a lock row. */
export const migrateReadModels = async (db: Kysely<ReadModels>): Promise<void> => {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'read_model_migrations',
    migrationLockTableName: 'read_model_migrations_lock',
    // Numbers are reserved per issue and land in the order issues finish: a database that already ran
    // 0030–0033 (the book's first step) must still take 0018–0026 when they land after it.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`read-model migration ${failed ?? '(setup)'} failed`, { cause: error });
  }
};
