import { ERASED_TEXT } from '@cropcover/contracts';

// Which fields of which events are a farmer's personal data (SPEC §6 erasure; why, in
// docs/decisions.md): sealed with the farmer's key before they are appended, opened when read, and
// shown as their erased placeholder once the key is destroyed. A field is named by its path in the
// event's data; `erased` is what reads show then: null where the contract allows it, else "[erased]".

export interface PersonalField {
  readonly path: readonly string[];
  readonly erased: null | typeof ERASED_TEXT;
}

export interface PersonalFieldsOf {
  /** The farmer whose key seals the event; undefined when the event names none (a shape older than
   *  sealing: its fields stay as they were stored). */
  readonly farmerIdOf: (data: Readonly<Record<string, unknown>>) => string | undefined;
  readonly fields: readonly PersonalField[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const profileFields = (prefix: readonly string[]): PersonalField[] => [
  { path: [...prefix, 'first_name'], erased: ERASED_TEXT },
  { path: [...prefix, 'last_name'], erased: ERASED_TEXT },
  { path: [...prefix, 'phone_number'], erased: null },
  { path: [...prefix, 'whatsapp_number'], erased: null },
];

const farmFields = (prefix: readonly string[]): PersonalField[] => [
  { path: [...prefix, 'name'], erased: ERASED_TEXT },
  { path: [...prefix, 'location'], erased: null },
];

export const PERSONAL_FIELDS: Readonly<Record<string, PersonalFieldsOf>> = {
  FarmerRegistered: { farmerIdOf: (data) => text(data.farmer_id), fields: profileFields([]) },
  FarmerEnrolled: { farmerIdOf: (data) => text(data.farmer_id), fields: profileFields([]) },
  FarmerProfileUpdated: { farmerIdOf: (data) => text(data.farmer_id), fields: profileFields(['changes']) },
  FarmRegistered: { farmerIdOf: (data) => text(data.owner_farmer_id), fields: farmFields([]) },
  FarmUpdated: { farmerIdOf: (data) => text(data.owner_farmer_id), fields: farmFields(['changes']) },
  // The farm name frozen into the policy: the policy still evaluates and pays once it reads "[erased]".
  PolicyIssued: {
    farmerIdOf: (data) => text(data.owner_farmer_id),
    fields: [{ path: ['farm_name'], erased: ERASED_TEXT }],
  },
};
