import { ERASED_TEXT } from '@cropcover/contracts';

// Which fields of which events are a farmer's personal data (SPEC §6 erasure; why, in
// docs/decisions.md): sealed with the farmer's key before they are appended, opened when read, and
// shown as their erased placeholder once the key is destroyed. A field is named by its path in the
// event's data; `erased` is what reads show then: null where the contract allows it, else "[erased]".
// An event's fields are listed in the order of their paths: an event's values are sealed together in
// that order (field-seal.ts), so a field added later cannot change the order of those sealed before it.

export interface PersonalField {
  readonly path: readonly string[];
  /** The path as one text, `changes.first_name`: what the sealed value's additional data names. */
  readonly name: string;
  readonly erased: null | typeof ERASED_TEXT;
}

export interface PersonalFieldsOf {
  /** The farmer whose key seals the event; undefined when the event names none (a shape older than
   *  sealing: its fields stay as they were stored). */
  readonly farmerIdOf: (data: Readonly<Record<string, unknown>>) => string | undefined;
  readonly fields: readonly PersonalField[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const inPathOrder = (fields: ReadonlyArray<readonly [readonly string[], PersonalField['erased']]>): PersonalField[] =>
  fields
    .map(([path, erased]) => ({ path, name: path.join('.'), erased }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const profileFields = (prefix: readonly string[]): PersonalField[] =>
  inPathOrder([
    [[...prefix, 'first_name'], ERASED_TEXT],
    [[...prefix, 'last_name'], ERASED_TEXT],
    [[...prefix, 'phone_number'], null],
    [[...prefix, 'whatsapp_number'], null],
  ]);

const farmFields = (prefix: readonly string[]): PersonalField[] =>
  inPathOrder([
    [[...prefix, 'name'], ERASED_TEXT],
    [[...prefix, 'location'], null],
  ]);

export const PERSONAL_FIELDS: Readonly<Record<string, PersonalFieldsOf>> = {
  FarmerRegistered: { farmerIdOf: (data) => text(data.farmer_id), fields: profileFields([]) },
  FarmerEnrolled: { farmerIdOf: (data) => text(data.farmer_id), fields: profileFields([]) },
  FarmerProfileUpdated: { farmerIdOf: (data) => text(data.farmer_id), fields: profileFields(['changes']) },
  FarmRegistered: { farmerIdOf: (data) => text(data.owner_farmer_id), fields: farmFields([]) },
  FarmUpdated: { farmerIdOf: (data) => text(data.owner_farmer_id), fields: farmFields(['changes']) },
  // The farm name frozen into the policy: the policy still evaluates and pays once it reads "[erased]".
  PolicyIssued: {
    farmerIdOf: (data) => text(data.owner_farmer_id),
    fields: inPathOrder([[['farm_name'], ERASED_TEXT]]),
  },
};
