import type { FarmAttributes, FarmerProfileFields } from '@cropcover/contracts';
import { farmerStream, farmStream, shareableIdStream } from '@cropcover/domain';
import type { EventStore, NewEvent } from '@cropcover/eventstore';
import {
  farmAccessGranted,
  farmAccessRevoked,
  farmAttributes,
  farmDeactivated,
  farmerProfileUpdated,
  farmerRegistered,
  farmLinkedToOrganization,
  farmRegistered,
  farmUpdated,
  fieldRegistered,
  shareableIdClaimed,
} from './registry-events';

// Random registry activity of one writer, with the rows the read models must end up holding. Each writer
// changes only what it created, so the order of its appends is the order of each stream.

type Row = Record<string, unknown>;

export interface ExpectedReadModels {
  readonly farmers: Row[];
  readonly farms: Row[];
  readonly farm_fields: Row[];
  readonly farm_organizations: Row[];
}

export interface RegistryWorkload {
  /** Appends one random registry change (one to three events). */
  step(): Promise<void>;
  readonly appendedEvents: () => number;
  readonly expected: () => ExpectedReadModels;
}

const CROPS = ['maize', 'beans', 'sorghum', 'cassava', 'coffee', 'tea'];
const NAMES = ['Wanjiru', 'Achieng', 'Kipchoge', 'Amina', 'Baraka', 'Zawadi'];
const ORGANIZATIONS = ['org-jubilee', 'org-apa', 'org-acre'];

const byKey = (key: (row: Row) => string) => (a: Row, b: Row) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

export const registryWorkload = (
  eventStore: EventStore,
  writer: string,
  random: () => number,
  startAt = Date.parse('2026-01-01T00:00:00.000Z'),
): RegistryWorkload => {
  let clock = startAt;
  let sequence = 0;
  let appended = 0;
  const farmers = new Map<string, Row>();
  const farms = new Map<string, Row>();
  const fields: Row[] = [];
  const links = new Map<string, Row>();

  const now = (): string => {
    clock += 1000;
    return new Date(clock).toISOString();
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const nextId = (kind: string): string => {
    sequence += 1;
    return `${writer}-${kind}${sequence}`;
  };
  const append = async (streamId: string, events: NewEvent[], expected: 'no_stream' | number) => {
    await eventStore.append(streamId, events, expected);
    appended += events.length;
  };
  const claim = (code: string, by: string) =>
    append(shareableIdStream(code), [shareableIdClaimed({ code, claimed_by: by })], 'no_stream');

  const registerFarmer = async () => {
    const id = nextId('farmer');
    const at = now();
    const event = farmerRegistered(id, at, { first_name: pick(NAMES) });
    const data = event.data as Row;
    await claim(data.platform_farmer_id as string, id);
    await append(farmerStream(id), [event], 'no_stream');
    const { source: _, registered_at: __, ...columns } = data;
    farmers.set(id, { ...columns, is_active: true, created_at: at, updated_at: at, stream_revision: 0 });
  };

  const updateFarmer = async (farmer: Row) => {
    const changes: Partial<FarmerProfileFields> = pick([
      { last_name: pick(NAMES) },
      { data_consent_given: random() < 0.5 },
      { whatsapp_number: random() < 0.5 ? null : '+254700000002', language: 'en' },
    ]);
    const at = now();
    const revision = farmer.stream_revision as number;
    const onboarding = random() < 0.5 ? 'pending' : 'completed';
    await append(
      farmerStream(farmer.farmer_id as string),
      [
        farmerProfileUpdated({
          farmer_id: farmer.farmer_id as string,
          changes,
          onboarding_status: onboarding,
          updated_at: at,
        }),
      ],
      revision,
    );
    Object.assign(farmer, changes, { onboarding_status: onboarding, updated_at: at, stream_revision: revision + 1 });
  };

  const registerFarm = async (owner: Row) => {
    const id = nextId('farm');
    const at = now();
    const attributes = farmAttributes({ name: `Farm ${id}`, common_grown_crops: [pick(CROPS)] });
    const event = farmRegistered(id, owner.farmer_id as string, at, attributes);
    const data = event.data as Row;
    await claim(data.platform_farm_id as string, id);
    await append(farmStream(id), [event], 'no_stream');
    const { created_at: _, ...columns } = data;
    farms.set(id, { ...columns, is_active: true, created_at: at, updated_at: at, stream_revision: 0 });
  };

  const farmEvent = async (farm: Row, event: NewEvent) => {
    const revision = farm.stream_revision as number;
    await append(farmStream(farm.farm_id as string), [event], revision);
    farm.stream_revision = revision + 1;
  };

  const updateFarm = async (farm: Row) => {
    const changes: Partial<FarmAttributes> = pick([
      { name: `Renamed ${nextId('name')}` },
      { common_grown_crops: random() < 0.3 ? null : [pick(CROPS), pick(CROPS)] },
      { has_irrigation: true, irrigation_type: 'drip', water_source: 'borehole' },
      { country: null, location: null },
    ]);
    const at = now();
    await farmEvent(farm, farmUpdated({ farm_id: farm.farm_id as string, changes, updated_at: at }));
    Object.assign(farm, changes, { updated_at: at });
  };

  const registerField = async (farm: Row) => {
    const fieldId = nextId('field');
    const at = now();
    const field = {
      farm_id: farm.farm_id as string,
      field_id: fieldId,
      name: `Field ${fieldId}`,
      area_ha: Math.round(random() * 1000) / 100,
      location: { lat: Math.round(random() * 1e6) / 1e5 - 5, lon: Math.round(random() * 1e6) / 1e5 + 30 },
      crop_type: random() < 0.5 ? null : pick(CROPS),
      registered_at: at,
    };
    await farmEvent(farm, fieldRegistered(field));
    const { location, registered_at: _, ...columns } = field;
    fields.push({ ...columns, lat: location.lat, lon: location.lon, created_at: at });
  };

  /** The owner's grant (replacing any), or now and then a link as issuing made them before grants,
   *  which the command side made once per organization and farm. */
  const grantAccess = async (farm: Row) => {
    const organizationId = pick(ORGANIZATIONS);
    const key = `${farm.farm_id as string}/${organizationId}`;
    const at = now();
    const base = { farm_id: farm.farm_id as string, organization_id: organizationId, linked_at: at };
    if (!links.has(key) && random() < 0.3) {
      await farmEvent(farm, farmLinkedToOrganization({ ...base, relationship: 'insurer' }));
      links.set(key, {
        ...base,
        relationship: 'insurance',
        purposes: ['insurance'],
        origin: 'policy_issued',
        expires_on: null,
      });
      return;
    }
    const purposes = random() < 0.5 ? (['insurance'] as const) : (['credit', 'insurance'] as const);
    const { linked_at: _, ...grantKey } = base;
    await farmEvent(
      farm,
      farmAccessGranted({
        ...grantKey,
        purposes: [...purposes],
        expires_on: null,
        origin: 'owner',
        granted_by: 'owner',
        granted_at: at,
      }),
    );
    links.set(key, { ...base, relationship: purposes[0], purposes: [...purposes], origin: 'owner', expires_on: null });
  };

  const revokeAccess = async (farm: Row) => {
    const held = [...links.keys()].filter((key) => key.startsWith(`${farm.farm_id as string}/`));
    if (held.length === 0) return;
    const key = pick(held);
    const link = links.get(key)!;
    await farmEvent(
      farm,
      farmAccessRevoked({
        farm_id: link.farm_id as string,
        organization_id: link.organization_id as string,
        revoked_by: 'owner',
        revoked_at: now(),
      }),
    );
    links.delete(key);
  };

  const deactivateFarm = async (farm: Row) => {
    const at = now();
    await farmEvent(farm, farmDeactivated({ farm_id: farm.farm_id as string, deactivated_at: at }));
    Object.assign(farm, { is_active: false, updated_at: at });
  };

  return {
    step: async () => {
      const knownFarmers = [...farmers.values()];
      const knownFarms = [...farms.values()];
      const activeFarms = [...farms.values()].filter((farm) => farm.is_active);
      const roll = random();
      if (knownFarmers.length === 0 || roll < 0.15) return registerFarmer();
      if (roll < 0.3) return updateFarmer(pick(knownFarmers));
      if (activeFarms.length === 0 || roll < 0.45) return registerFarm(pick(knownFarmers));
      if (roll < 0.65) return updateFarm(pick(activeFarms));
      if (roll < 0.85) return registerField(pick(activeFarms));
      if (roll < 0.91) return grantAccess(pick(knownFarms));
      if (roll < 0.93) return revokeAccess(pick(knownFarms));
      return deactivateFarm(pick(activeFarms));
    },
    appendedEvents: () => appended,
    expected: () => ({
      farmers: [...farmers.values()],
      farms: [...farms.values()],
      farm_fields: fields,
      farm_organizations: [...links.values()],
    }),
  };
};

/** The rows several writers must produce together, sorted as dumpReadModels sorts them. */
export const combinedExpectation = (workloads: readonly RegistryWorkload[]): ExpectedReadModels => {
  const all = workloads.map((workload) => workload.expected());
  return {
    farmers: all.flatMap((expected) => expected.farmers).sort(byKey((row) => row.farmer_id as string)),
    farms: all.flatMap((expected) => expected.farms).sort(byKey((row) => row.farm_id as string)),
    farm_fields: all
      .flatMap((expected) => expected.farm_fields)
      .sort(byKey((row) => `${row.farm_id as string}\u0000${row.field_id as string}`)),
    farm_organizations: all
      .flatMap((expected) => expected.farm_organizations)
      .sort(byKey((row) => `${row.farm_id as string}\u0000${row.organization_id as string}`)),
  };
};
