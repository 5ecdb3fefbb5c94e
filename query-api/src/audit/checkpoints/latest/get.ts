import { AuditCheckpoint, NO_CHECKPOINT } from '@cropcover/contracts';
import { checkpointOnTheWire, loadCheckpoint } from '@cropcover/read-store';
import { queryRoute } from '../../../query-route';
import { AUDIT_READERS } from '../../audit-readers';

/** The newest signed checkpoint of the log (a C2SP signed note). */
export const getLatestCheckpoint = queryRoute('GET /audit/checkpoints/latest', {
  summary: "The log's newest signed checkpoint",
  roles: AUDIT_READERS,
  success: { status: 200, schema: AuditCheckpoint, description: 'The checkpoint' },
  problems: { 404: NO_CHECKPOINT },
}).handle(async ({ deps, refuse }) => {
  const checkpoint = await loadCheckpoint(deps.db);
  if (!checkpoint) throw refuse('no_checkpoint', 'no checkpoint has been signed yet');
  return checkpointOnTheWire(checkpoint);
});
