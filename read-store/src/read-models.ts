import type { AuditLogTables } from './schema/audit-integrator/audit-log-tables';
import type { ClimatologyRequestTables } from './schema/command-api/climatology-request-tables';
import type { FarmerKeyTables } from './schema/command-api/farmer-key-tables';
import type { IdempotencyKeysTable } from './schema/command-api/idempotency-tables';
import type { IndexReadingsTables } from './schema/command-api/index-readings-tables';
import type { PortfolioBacktestRequestTables } from './schema/command-api/portfolio-backtest-request-tables';
import type { ProductBacktestRequestTables } from './schema/command-api/product-backtest-request-tables';
import type { WebhookSecretTables } from './schema/command-api/webhook-secret-tables';
import type { ClimatologyTables } from './schema/monitor/climatology-tables';
import type { PolicyMonitorTables } from './schema/monitor/policy-monitor-tables';
import type { PortfolioBacktestRunTables } from './schema/monitor/portfolio-backtest-run-tables';
import type { ProductBacktestRunTables } from './schema/monitor/product-backtest-run-tables';
import type { CheckpointTables } from './schema/projector/checkpoint-tables';
import type { IndexSourceTables } from './schema/projector/index-source-tables';
import type { PolicyTables } from './schema/projector/policy-tables';
import type { ProductTables } from './schema/projector/product-tables';
import type { ProgrammeTables } from './schema/projector/programme-tables';
import type { RegistryTables } from './schema/projector/registry-tables';
import type { ReinsuranceTables } from './schema/projector/reinsurance-tables';
import type { UnitAreaTables } from './schema/projector/unit-area-tables';
import type { WebhookTables } from './schema/projector/webhook-tables';
import type { WebhookDeliveryTables } from './schema/webhook-dispatcher/webhook-delivery-tables';

// Every table of the read store, grouped under schema/<owner>/ by the one process that writes it:
// the projector (rebuilt from the log), the command API (records of answers and reference data that
// are not events), the webhook dispatcher (its delivery ledger), the monitor (its rounds, leases and policy snapshots)
// and the audit integrator (the log's tree and signed checkpoints).
// Any process may read any of them.

export interface ReadModels
  extends RegistryTables,
    PolicyTables,
    ProductTables,
    ProgrammeTables,
    ReinsuranceTables,
    WebhookTables,
    IndexSourceTables,
    UnitAreaTables,
    CheckpointTables,
    IndexReadingsTables,
    WebhookSecretTables,
    FarmerKeyTables,
    WebhookDeliveryTables,
    PolicyMonitorTables,
    PortfolioBacktestRequestTables,
    PortfolioBacktestRunTables,
    ClimatologyRequestTables,
    ClimatologyTables,
    ProductBacktestRequestTables,
    ProductBacktestRunTables,
    AuditLogTables {
  idempotency_keys: IdempotencyKeysTable;
}

/** A table the projector owns; a projection names the ones it writes so a rebuild can empty them. */
export type ReadModelTable =
  | keyof RegistryTables
  | keyof PolicyTables
  | keyof ProductTables
  | keyof ProgrammeTables
  | keyof ReinsuranceTables
  | keyof WebhookTables
  | keyof IndexSourceTables
  | keyof UnitAreaTables;
