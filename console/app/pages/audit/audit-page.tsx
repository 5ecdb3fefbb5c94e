import type { AuditCheckpoint } from '@cropcover/contracts';
import {
  type AuditKey,
  getLatestCheckpoint,
  listAuditKeys,
  listProvenEvents,
  type ProvenAuditEvent,
} from '../../api/audit';
import { useResource } from '../../api/use-resource';
import { timestamp } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { type EventProof, proveEvents } from './event-proofs';
import { ProofMark } from './proof-mark';
import { type OpenedCheckpoint, openCheckpoint, parseVerifierKey } from './signed-checkpoint';

// The audit of a policy (SPEC §8): its events, each proven in this browser against the latest signed
// checkpoint — the signature checked with the published keys, each leaf recomputed from the event's stored
// bytes and its inclusion proof folded up to the signed root. The API's word is taken for nothing.

interface Audit {
  readonly events: readonly ProvenAuditEvent[];
  readonly proofs: readonly EventProof[];
  readonly checkpoint: OpenedCheckpoint;
  readonly keys: readonly AuditKey[];
}

const loadAudit = async (policyId: string, signal: AbortSignal): Promise<Audit> => {
  // The checkpoint first: events appended after it are pending, not failing.
  const [checkpoint, keys] = await Promise.all([getLatestCheckpoint(signal), listAuditKeys(signal)]);
  const events = await listProvenEvents(policyId, signal);
  const opened = await openCheckpoint(
    checkpoint.note,
    await Promise.all(keys.map((key) => parseVerifierKey(key.vkey))),
  );
  checkSameCheckpoint(checkpoint, opened);
  return { events, proofs: await proveEvents(`policy-${policyId}`, events, opened), checkpoint: opened, keys };
};

/** The note is what is signed; the JSON beside it must say the same. */
const checkSameCheckpoint = (checkpoint: AuditCheckpoint, opened: OpenedCheckpoint): void => {
  if (checkpoint.size !== opened.size || checkpoint.origin !== opened.origin)
    throw new Error('the checkpoint’s fields differ from its signed note');
};

export const AuditPage = ({ policyId }: { policyId: string }) => {
  const audit = useResource(policyId, (signal) => loadAudit(policyId, signal));
  return (
    <>
      <h1 tabIndex={-1}>Audit of policy {policyId}</h1>
      <p>
        <Link href={consolePath(`/policies/${encodeURIComponent(policyId)}`)}>Back to the policy</Link>
      </p>
      <Loaded resource={audit} what="the audit">
        {(value) => <AuditView audit={value} />}
      </Loaded>
    </>
  );
};

const AuditView = ({ audit }: { audit: Audit }) => {
  const { events, proofs, checkpoint } = audit;
  const count = (verdict: EventProof['verdict']) => proofs.filter((proof) => proof.verdict === verdict).length;
  const failing = count('failing');
  return (
    <>
      <dl class="summary" data-checkpoint={checkpoint.size}>
        <dt>Checkpoint</dt>
        <dd>
          {checkpoint.origin}, {checkpoint.size.toLocaleString()} leaves
        </dd>
        <dt>Signed by</dt>
        <dd>
          {checkpoint.signedBy.name} (key {checkpoint.signedBy.keyId.toString(16).padStart(8, '0')}), signature verified
          here
        </dd>
      </dl>
      <p role="status" class={failing > 0 ? 'problem' : 'status'} data-proven={count('proven')} data-failing={failing}>
        {failing > 0
          ? `${failing} of ${events.length} events fail their proof.`
          : `${count('proven')} of ${events.length} events proven against the signed checkpoint.`}
        {count('pending') > 0 && ` ${count('pending')} appended since: the next checkpoint will cover them.`}
      </p>
      {/* biome-ignore lint/a11y/useSemanticElements: a wrapper of a table, named so its scroll takes the keyboard (axe scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard */}
      <div class="table-scroll" role="region" aria-label="Events" tabIndex={0}>
        <table data-events>
          <caption>The policy’s events in order, each checked in this browser</caption>
          <thead>
            <tr>
              <th scope="col">Revision</th>
              <th scope="col">Event</th>
              <th scope="col">Occurred</th>
              <th scope="col">Leaf</th>
              <th scope="col">Proof</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event, index) => (
              <tr key={event.revision} data-revision={event.revision} data-proof={proofs[index]!.verdict}>
                <th scope="row">{event.revision}</th>
                <td>{event.type}</td>
                <td>{timestamp(event.occurred_at)}</td>
                <td>{event.leaf_index ?? '—'}</td>
                <td>
                  <ProofMark proof={proofs[index]!} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
};
