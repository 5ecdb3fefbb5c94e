import type { ExposureReleaseReason, ProgrammeEvent } from '@cropcover/contracts';
import type { Programme } from './programme';

export interface ReleaseExposure {
  readonly policyId: string;
  readonly reason: ExposureReleaseReason;
  readonly now: Date;
}

/** A lapse or a close gives the policy's sum insured back to every limit it was committed against; a
 *  payout does not (as in GIF: only closing a policy frees its collateral). Releasing what is not
 *  reserved — released already, or issued before programmes — changes nothing. */
export const releaseExposure = (command: ReleaseExposure, state: Programme): ProgrammeEvent[] => {
  if (state.status === 'not_created') return [];
  const reservation = state.reservations.get(command.policyId);
  if (reservation === undefined) return [];
  return [
    {
      type: 'ExposureReleased',
      data: {
        programme_id: state.programmeId,
        policy_id: command.policyId,
        sum_insured_minor: reservation.sumInsuredMinor,
        premium_minor: reservation.premiumMinor,
        zones: [...reservation.zones],
        reason: command.reason,
        released_at: command.now.toISOString(),
      },
    },
  ];
};
