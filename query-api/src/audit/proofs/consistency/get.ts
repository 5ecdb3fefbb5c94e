import { BEYOND_TREE, ConsistencyProof, ConsistencyProofQuery } from '@cropcover/contracts';
import { loadRangeHashes, loadTreeSize } from '@cropcover/read-store';
import { consistencyProofRanges } from '@cropcover/verifiable-log';
import { queryRoute } from '../../../query-route';
import { AUDIT_READERS, base64 } from '../../audit-readers';

/** RFC 6962 consistency proof: the tree of `from` leaves is a prefix of the tree of `to`. */
export const getConsistencyProof = queryRoute('GET /audit/proofs/consistency', {
  summary: 'Consistency proof between two sizes of the log',
  roles: AUDIT_READERS,
  request: { query: ConsistencyProofQuery },
  success: { status: 200, schema: ConsistencyProof, description: 'The proof' },
  problems: { 422: BEYOND_TREE },
}).handle(async ({ deps, query: { from, to }, refuse }) => {
  const treeSize = await loadTreeSize(deps.db);
  if (to > treeSize) throw refuse('beyond_tree', `the tree has ${treeSize} leaves, not ${to}`);
  if (from > to) throw refuse('beyond_tree', `a tree of ${to} cannot extend one of ${from}`);
  const hashes = await loadRangeHashes(deps.db, consistencyProofRanges(from, to));
  return { from_size: from, to_size: to, hashes: hashes.map(base64) };
});
