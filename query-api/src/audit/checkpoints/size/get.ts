import { AuditCheckpoint, CheckpointPathParams, NO_CHECKPOINT } from '@cropcover/contracts';
import { checkpointOnTheWire, loadCheckpoint } from '@cropcover/read-store';
import { queryRoute } from '../../../query-route';
import { AUDIT_READERS } from '../../audit-readers';

/** The checkpoint the log signed at one tree size: what an auditor compares a held one with. */
export const getCheckpointOfSize = queryRoute('GET /audit/checkpoints/{size}', {
  summary: 'The signed checkpoint of one tree size',
  roles: AUDIT_READERS,
  request: { params: CheckpointPathParams },
  success: { status: 200, schema: AuditCheckpoint, description: 'The checkpoint' },
  problems: { 404: NO_CHECKPOINT },
}).handle(async ({ deps, params: { size }, refuse }) => {
  const checkpoint = await loadCheckpoint(deps.db, size);
  if (!checkpoint) throw refuse('no_checkpoint', `no checkpoint was signed at size ${size}`);
  return checkpointOnTheWire(checkpoint);
});
