import type { FarmAttributes, FarmEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { laterTimestamp } from '../later-timestamp';
import { changedFields } from './changed-fields';
import type { Farm } from './farm';
import { managedFarm } from './farm-access';

export interface UpdateFarm {
  readonly actor: Actor;
  readonly changes: Partial<FarmAttributes>;
  /** The `updated_at` values the client last saw (body field, If-Match); any other stored one means a lost update. */
  readonly expectedUpdatedAt: readonly string[];
  readonly now: Date;
}

export const updateFarm = (command: UpdateFarm, state: Farm): FarmEvent[] => {
  const farm = managedFarm(state, command.actor);
  if (command.expectedUpdatedAt.some((seen) => Date.parse(seen) !== Date.parse(farm.updatedAt))) {
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
      data: { farm_id: farm.farmId, changes, updated_at: laterTimestamp(command.now, farm.updatedAt) },
    },
  ];
};
