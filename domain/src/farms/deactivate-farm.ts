import type { FarmEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { utcDate } from '../insurance/calendar/calendar-date';
import { laterTimestamp } from '../later-timestamp';
import type { Farm } from './farm';
import { managedFarm } from './farm-access';

export interface DeactivateFarm {
  readonly actor: Actor;
  readonly now: Date;
}

/** Soft delete: the farm stays in the log and on issued policies, but is gone for everything new. */
export const deactivateFarm = (command: DeactivateFarm, state: Farm): FarmEvent[] => {
  const farm = managedFarm(state, command.actor, utcDate(command.now));
  return [
    {
      type: 'FarmDeactivated',
      data: { farm_id: farm.farmId, deactivated_at: laterTimestamp(command.now, farm.updatedAt) },
    },
  ];
};
