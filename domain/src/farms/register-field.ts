import type { FarmEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { utcDate } from '../insurance/calendar/calendar-date';
import type { Farm } from './farm';
import { managedFarm } from './farm-access';

export interface RegisterField {
  readonly actor: Actor;
  readonly fieldId: string;
  readonly name: string;
  readonly areaHa: number;
  readonly location: { readonly lat: number; readonly lon: number };
  readonly cropType: string | null;
  readonly now: Date;
  /** The request carries an Idempotency-Key: the same field found registered with the same attributes is
   *  this request's own earlier write (its answer was lost), not a conflict. */
  readonly keyed: boolean;
}

export const registerField = (command: RegisterField, state: Farm): FarmEvent[] => {
  const farm = managedFarm(state, command.actor, utcDate(command.now));
  const existing = farm.fields.find((field) => field.fieldId === command.fieldId);
  if (existing) {
    const sameField =
      existing.name === command.name &&
      existing.areaHa === command.areaHa &&
      existing.location.lat === command.location.lat &&
      existing.location.lon === command.location.lon &&
      existing.cropType === command.cropType;
    if (command.keyed && sameField) return [];
    throw new DomainError('conflict', 'field_exists', `field ${command.fieldId} is already registered on this farm`);
  }
  return [
    {
      type: 'FieldRegistered',
      data: {
        farm_id: farm.farmId,
        field_id: command.fieldId,
        name: command.name,
        area_ha: command.areaHa,
        location: { lat: command.location.lat, lon: command.location.lon },
        crop_type: command.cropType,
        registered_at: command.now.toISOString(),
      },
    },
  ];
};
