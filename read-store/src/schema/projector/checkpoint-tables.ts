import type { PositionColumn, Timestamp } from '../../columns';

/** How far each projection (and the integration publisher) has read the log; moved in the same
 *  transaction as the rows a batch writes. */
export interface ProjectionCheckpointsTable {
  name: string;
  commit_position: PositionColumn;
  prepare_position: PositionColumn;
  updated_at: Timestamp;
}

export interface CheckpointTables {
  projection_checkpoints: ProjectionCheckpointsTable;
}
