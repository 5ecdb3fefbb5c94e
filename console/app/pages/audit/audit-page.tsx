import { parseVerifierKey } from '@cropcover/verifiable-log';
import { listAuditKeys, listProvenEvents } from '../../api/audit';
import { useResource } from '../../api/use-resource';
import { timestamp } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { type EventProof, type ProvenPolicy, provePolicyEvents } from './event-proofs';
import { ProofMark } from './proof-mark';

// The audit of a policy (SPEC §8): its events, each proven in this browser against the latest signed
// checkpoint — the signature checked with the published keys, each leaf recomputed from the event's stored
// bytes and its inclusion proof folded up to the signed root. The API's word is taken for no hash.

const loadAudit = async (policyId: string, signal: AbortSignal): Promise<ProvenPolicy> => {
  const [verifiers, events] = await Promise.all([
    listAuditKeys(signal).then((keys) => keys.map((key) => parseVerifierKey(key.vkey))),
    listProvenEvents(policyId, signal),
  ]);
  return provePolicyEvents(`policy-${policyId}`, events, verifiers);
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

const CheckpointSummary = ({ checkpoint }: { checkpoint: ProvenPolicy['checkpoint'] }) => {
  if (checkpoint === null) return <p>No checkpoint has been signed yet: nothing can be proven.</p>;
  if ('refused' in checkpoint)
    return (
      <p class="problem" data-checkpoint="refused">
        The checkpoint is refused: {checkpoint.refused}.
      </p>
    );
  return (
    <dl class="summary" data-checkpoint={checkpoint.size}>
      <dt>Checkpoint</dt>
      <dd>
        {checkpoint.origin}, a tree of {checkpoint.size.toLocaleString()} leaves
      </dd>
      <dt>Signed by</dt>
      <dd>
        {checkpoint.signedBy.name}, key {checkpoint.signedBy.keyId.toString(16).padStart(8, '0')}: signature verified in
        this browser
      </dd>
    </dl>
  );
};

const AuditView = ({ audit }: { audit: ProvenPolicy }) => {
  const { events, checkpoint } = audit;
  const count = (verdict: EventProof['verdict']) => events.filter(({ proof }) => proof.verdict === verdict).length;
  const failing = count('failing');
  return (
    <>
      <CheckpointSummary checkpoint={checkpoint} />
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
              <th scope="col">Proof</th>
            </tr>
          </thead>
          <tbody>
            {events.map(({ event, proof }) => (
              <tr key={event.revision} data-revision={event.revision} data-proof={proof.verdict}>
                <th scope="row">{event.revision}</th>
                <td>{event.type}</td>
                <td>{timestamp(event.occurred_at)}</td>
                <td>
                  <ProofMark proof={proof} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
};
