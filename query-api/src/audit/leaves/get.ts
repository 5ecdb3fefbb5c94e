import { AuditLeafRange, AuditLeavesQuery, BEYOND_TREE } from '@cropcover/contracts';
import { loadLeafPlaces, loadTreeSize, shownLeaves } from '@cropcover/read-store';
import { queryRoute } from '../../query-route';
import { AUDIT_READERS, base64 } from '../audit-readers';

/** A range of the log's leaves with their preimages (the small, content-free envelopes): an auditor who
 *  fetches them all rebuilds the root and sees every revision a stream has, not only the ones shown. A
 *  range the tree holds never changes; a leaf whose event row is gone is shown from the envelope the
 *  integrator kept, marked `event_missing`. */
export const listAuditLeaves = queryRoute('GET /audit/leaves', {
  summary: "A range of the log's leaves with their preimages",
  roles: AUDIT_READERS,
  request: { query: AuditLeavesQuery },
  success: { status: 200, schema: AuditLeafRange, description: 'The leaves, in tree order' },
  problems: { 422: BEYOND_TREE },
}).handle(async ({ deps, query: { from, count }, refuse }) => {
  const treeSize = await loadTreeSize(deps.db);
  if (from + count > treeSize)
    throw refuse('beyond_tree', `the tree has ${treeSize} leaves; [${from}, ${from + count}) is not in it`);
  const places = await loadLeafPlaces(deps.db, from, count);
  const stored = (await deps.storedLog?.readStoredEventsAt(places)) ?? [];
  return {
    from,
    count,
    // The hash the tree took, and the preimage recomputed from the stored bytes: if a row was edited, the
    // two no longer agree, and the verifier sees it.
    leaves: shownLeaves(places, stored).map((leaf) => ({
      leaf_index: leaf.leafIndex,
      leaf_hash: base64(leaf.leafHash),
      input: leaf.input,
      event_missing: leaf.eventMissing,
    })),
  };
});
