import type { ColumnType } from 'kysely';
import type { PositionColumn, Timestamp } from '../../columns';

// The audit integrator's tables (SPEC §7 Audit): the RFC 6962 tree over the log in commit order, and the
// checkpoints it signed. Written by the integrator alone (in the projector's process); never emptied by
// a rebuild: a signed checkpoint is history someone else may hold.

/** bigint: a leaf index or tree size; node-postgres returns int8 as a string. */
type TreeIndexColumn = ColumnType<string, string | number, string | number>;

/** One row per leaf, in tree order: where its event is in the log, and the rest of the envelope the leaf
 *  hashed (null only on leaves whose event was gone before migration 0041 kept them). */
export interface AuditLeavesTable {
  leaf_index: TreeIndexColumn;
  position_commit: PositionColumn;
  position_prepare: PositionColumn;
  stream_id: string;
  stream_revision: number;
  event_id: string | null;
  event_type: string | null;
  prev: Buffer | null;
  data_hash: Buffer | null;
  metadata_hash: Buffer | null;
}

/** Every complete subtree of the tree, leaves (level 0) included: any root or proof is a few of them. */
export interface AuditTreeTable {
  level: number;
  node_index: TreeIndexColumn;
  hash: Buffer;
}

/** Each signed checkpoint (C2SP signed note), when it reached the checkpoint sink and when Kafka. */
export interface AuditCheckpointsTable {
  tree_size: TreeIndexColumn;
  root: Buffer;
  note: string;
  signed_at: Timestamp;
  published_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  distributed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

/** Each key the integrator signed checkpoints with: from its first checkpoint until another key took over. */
export interface AuditSigningKeysTable {
  /** C2SP verifier key text. */
  vkey: string;
  name: string;
  /** 8 hex digits. */
  key_id: string;
  valid_from: Timestamp;
  valid_to: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

/** The log's identity, one row: the id its checkpoints' origin carries, created with the log (migration
 *  0042 gave an older log its id; its checkpoints up to `legacy_through_size` keep the origin they had). */
export interface AuditLogIdentityTable {
  singleton: ColumnType<boolean, never, never>;
  log_id: string;
  created_at: Timestamp;
  legacy_through_size: TreeIndexColumn;
}

/** The checkpoint sink as the integrator last found it, one row: failing since when and why, or healthy. */
export interface AuditCheckpointSinkStatusTable {
  singleton: ColumnType<boolean, never, never>;
  failing_since: ColumnType<Date | null, Date | string | null, Date | string | null>;
  reason: string | null;
  checked_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AuditLogTables {
  audit_log_identity: AuditLogIdentityTable;
  audit_checkpoint_sink_status: AuditCheckpointSinkStatusTable;
  audit_leaves: AuditLeavesTable;
  audit_tree: AuditTreeTable;
  audit_checkpoints: AuditCheckpointsTable;
  audit_signing_keys: AuditSigningKeysTable;
}
