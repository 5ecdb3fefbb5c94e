import type { EventProof } from './event-proofs';

// The mark of one event: an icon for the eye and the same words for everyone (the icon is hidden from
// assistive technology; the words are the mark).

const ICONS: Record<EventProof['verdict'], string> = {
  proven: 'M3 8.5l3 3 7-7',
  failing: 'M4 4l8 8M12 4l-8 8',
  pending: 'M8 3v5l3 2',
};

const wordsOf = (proof: EventProof): string => {
  switch (proof.verdict) {
    case 'proven':
      return `Proven (leaf ${proof.leafIndex})`;
    case 'failing':
      return `Failing: ${proof.reason}`;
    case 'pending':
      return `Pending: ${proof.reason}`;
  }
};

export const ProofMark = ({ proof }: { proof: EventProof }) => (
  <span class={`proof-mark proof-${proof.verdict}`} data-mark={proof.verdict}>
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      {proof.verdict === 'pending' && <circle cx="8" cy="8" r="6.5" />}
      <path d={ICONS[proof.verdict]} />
    </svg>
    {wordsOf(proof)}
  </span>
);
