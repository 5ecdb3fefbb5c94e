import { AuditLeafRange, AuditLeavesQuery, BEYOND_TREE } from '@cropcover/contracts';
import { loadLeafPlaces, loadTreeSize } from '@cropcover/read-store';
import { canonicalJson, leafEnvelopeOf } from '@cropcover/verifiable-log';
import { queryRoute } from '../../query-route';
import { AUDIT_READERS, base64 } from '../audit-readers';

/** A range of the log's leaves with their preimages (the small, content-free envelopes): an auditor who
 *  fetches them all rebuilds the root and sees every revision a stream has, not only the ones shown. A
 *  range the tree holds never changes. */
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
  if (stored.length !== places.length) throw new Error(`the log lacks events of leaves ${from}…${from + count - 1}`);
  return {
    from,
    count,
    // The hash the tree took, and the preimage recomputed from the stored bytes: if a row was edited, the
    // two no longer agree, and the verifier sees it.
    leaves: stored.map((event, i) => ({
      leaf_index: places[i]!.leafIndex,
      leaf_hash: base64(event.leafHash),
      input: canonicalJson(leafEnvelopeOf(event)),
    })),
  };
});
