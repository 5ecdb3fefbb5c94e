import { BEYOND_TREE, InclusionProof, InclusionProofQuery } from '@cropcover/contracts';
import { loadRangeHashes, loadTreeSize } from '@cropcover/read-store';
import { inclusionProofRanges } from '@cropcover/verifiable-log';
import { queryRoute } from '../../../query-route';
import { AUDIT_READERS, base64 } from '../../audit-readers';

/** RFC 6962 inclusion proof of leaf `index` in the tree of `size` leaves. */
export const getInclusionProof = queryRoute('GET /audit/proofs/inclusion', {
  summary: 'Inclusion proof of a leaf of the log in a tree size',
  roles: AUDIT_READERS,
  request: { query: InclusionProofQuery },
  success: { status: 200, schema: InclusionProof, description: 'The proof' },
  problems: { 422: BEYOND_TREE },
}).handle(async ({ deps, query: { index, size }, refuse }) => {
  const treeSize = await loadTreeSize(deps.db);
  if (size > treeSize) throw refuse('beyond_tree', `the tree has ${treeSize} leaves, not ${size}`);
  if (index >= size) throw refuse('beyond_tree', `leaf ${index} is not in a tree of ${size}`);
  const hashes = await loadRangeHashes(deps.db, inclusionProofRanges(index, size));
  return { leaf_index: index, tree_size: size, hashes: hashes.map(base64) };
});
