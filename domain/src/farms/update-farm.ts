import type { FarmAttributes, FarmEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { utcDate } from '../insurance/calendar/calendar-date';
import { laterTimestamp } from '../later-timestamp';
import { changedFields } from './changed-fields';
import type { Farm } from './farm';
import { managedFarm } from './farm-access';

export interface UpdateFarm {
  readonly actor: Actor;
  readonly changes: Partial<FarmAttributes>;
  /** The `updated_at` the client last saw (body field); another stored one means a lost update (409). */
  readonly expectedUpdatedAt: string | undefined;
  /** The version `If-Match` names: a condition of the request, so another one is 412. */
  readonly ifMatchUpdatedAt: string | undefined;
  readonly now: Date;
}

export const updateFarm = (command: UpdateFarm, state: Farm): FarmEvent[] => {
  const farm = managedFarm(state, command.actor, utcDate(command.now));
  const changedSince = (seen: string | undefined) =>
    seen !== undefined && Date.parse(seen) !== Date.parse(farm.updatedAt);
  if (changedSince(command.ifMatchUpdatedAt)) {
    throw new DomainError(
      'precondition_failed',
      'precondition_failed',
      `If-Match names a version of the farm before its change at ${farm.updatedAt}`,
    );
  }
  if (changedSince(command.expectedUpdatedAt)) {
    throw new DomainError(
      'conflict',
      'version_conflict',
      `the farm was changed at ${farm.updatedAt}, after the version this update was based on`,
    );
  }
  const changes = changedFields(farm.attributes, command.changes);
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'FarmUpdated',
      data: {
        farm_id: farm.farmId,
        owner_farmer_id: farm.ownerFarmerId,
        changes,
        updated_at: laterTimestamp(command.now, farm.updatedAt),
      },
    },
  ];
};
